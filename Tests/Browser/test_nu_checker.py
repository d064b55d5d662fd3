"""The Nu HTML checker on every HTML page of the example site and of the long-word sites.

Errors fail everywhere. Warnings about the document's language fail on the example site; on the
long-word sites, whose text is made-up compounds in three languages, they are only listed.
"""

from collections import defaultdict

from sitekit import nu


def _grouped(messages: list[nu.Message], root) -> list[str]:
    """One entry per distinct message: how often, and every place it occurs."""
    places: dict[str, list[str]] = defaultdict(list)
    for message in messages:
        file = message.file.relative_to(root) if message.file.is_relative_to(root) else message.file
        places[f"{message.kind}: {message.text}"].append(f"{file}:{message.line}:{message.column}")
    lines = []
    for text, where in sorted(places.items(), key=lambda item: -len(item[1])):
        lines.append(f"{text} ({len(where)} times)")
        lines.extend(f"    {place}" for place in where)
    return lines


def test_every_page_is_valid_html_with_no_language_warning(tools, example_site, long_word_sites, report):
    sites = [example_site, *long_word_sites]
    files = [page.file for site in sites for page in site.pages]
    messages = nu.check(tools.java, tools.vnu_jar, files)
    root = example_site.output.parent

    def on_example_site(message: nu.Message) -> bool:
        return message.file.is_relative_to(example_site.output)

    failing = [
        message
        for message in messages
        if message.kind == "error" or (message.is_language_warning and on_example_site(message))
    ]
    others = [message for message in messages if message not in failing]
    report.add(
        f"Nu checker: warnings and notes that do not fail the check ({len(others)} in {len(files)} pages)",
        *_grouped(others, root),
    )

    errors = sum(1 for message in failing if message.kind == "error")
    assert not failing, (
        f"the Nu checker found {errors} errors and {len(failing) - errors} language warnings "
        f"in {len(files)} pages:\n" + "\n".join(message.describe(root) for message in failing)
    )
