"""Content: discovering sources, parsing pages, and assembling the content tree."""
