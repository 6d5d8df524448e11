"""sitegen: a static personal-site and CV builder."""

__version__ = "0.1.0"

DISTRIBUTION = "sitegen-cv"
"""The name on PyPI (`pip install sitegen-cv`); the command and the import package are `sitegen`. The PyPI
project `sitegen` is an unrelated one from 2010."""

PROJECT_URL = f"https://pypi.org/project/{DISTRIBUTION}/"
"""Where the distribution lives (feeds' generator, the CV schema's `$id`, starter-site links)."""
