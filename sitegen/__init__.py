"""sitegen: a static personal-site and CV builder."""

__version__ = "0.1.0"
