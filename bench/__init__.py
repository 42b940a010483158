"""yili-kg's benchmark: every figure measured against a peer in the same run.

Run ``python -m bench`` from the checkout (after ``pip install -e ".[bench]"``); see README.md.
"""
