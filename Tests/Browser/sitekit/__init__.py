"""Helpers for the browser checks: build and serve a site, drive Chromium, run the Nu checker and axe-core."""
