"""The package's version: llctrace's own."""
__version__ = "0.2.0"  # the same as llctrace --version (checked by cli_install)
