"""The text layer (文本層): variants folded, witnesses aligned, clause breaks projected from the
punctuated edition, passages with their notes and phases, published ids kept, collation."""
