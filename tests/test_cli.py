"""The command line, through click's runner (the commands the README lists)."""

from __future__ import annotations

from click.testing import CliRunner

from yili_kg.service.cli import main


def test_help_lists_only_working_commands():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in ("build", "export", "collate", "manifest"):
        assert command in result.output


def test_build_prints_a_one_line_summary(build_dir):
    result = CliRunner().invoke(main, ["build", "--build-dir", str(build_dir)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("built ") and "up to date" in result.output


def test_export_to_stdout_and_file(build_dir, tmp_path):
    result = CliRunner().invoke(
        main, ["export", "--build-dir", str(build_dir), "--format", "nt", "--graph", "ontology"]
    )
    assert result.exit_code == 0
    assert "<https://w3id.org/yili/ontology#agent>" in result.output
    out = tmp_path / "o.ttl"
    result = CliRunner().invoke(
        main,
        [
            "export",
            "--build-dir",
            str(build_dir),
            "--format",
            "ttl",
            "--graph",
            "ontology",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0 and "yl:agent" in out.read_text(encoding="utf-8")


def test_export_without_a_build_says_what_to_do(tmp_path):
    result = CliRunner().invoke(main, ["export", "--build-dir", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert "yili-kg build" in result.output


def test_collate_summary():
    result = CliRunner().invoke(main, ["collate", "--summary"])
    assert result.exit_code == 0 and result.output.startswith("summary: ")


def test_manifest_check():
    result = CliRunner().invoke(main, ["manifest"])
    assert result.exit_code == 0 and "match the manifest" in result.output
