"""Witness readers (讀本): one reader per format of the sources — Kanripo mandoku files, the web
注疏 transcriptions, 江永's 禮書綱目, the 禮記 TEI, the pinyin and the punctuated base text."""
