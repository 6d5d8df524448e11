"""One CV source (`data/cv.yaml`, JSON Resume 1.0 + extensions) -> web page, PDF and JSON Resume.

Modules: schema (the format), validate (errors with lines and paths), source (finding and loading files),
model (the normalized CV), html / pdf / jsonresume (the outputs), site (pages and files within a build).
"""
