"""Tests of reading other tools' sites in place."""
