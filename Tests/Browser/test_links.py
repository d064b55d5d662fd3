"""Every internal link, image, stylesheet and fragment on every page resolves on the local server."""

import pytest

from sitekit import links


def _site(name, example_site, long_word_sites):
    return example_site if name == "example" else next(s for s in long_word_sites if s.name.endswith(f"({name})"))


@pytest.mark.parametrize("name", ["example", "en", "ko"])
def test_every_internal_address_resolves(name, example_site, long_word_sites, report):
    site = _site(name, example_site, long_word_sites)
    result = links.check_site(site)
    report.add(
        f"links, {site.name}",
        f"{result.checked} internal references followed on {len(site.pages)} pages; "
        f"{len(result.external)} external addresses not fetched:",
        *(f"    {url}" for url in sorted(result.external)),
        *(f"not in sitemap.xml: {url}" for url in links.unlisted_pages(site)),
    )
    assert result.checked > len(site.pages), f"{site.name}: only {result.checked} internal references found"
    assert not result.problems, f"{site.name}: {len(result.problems)} broken references:\n" + "\n".join(result.problems)
