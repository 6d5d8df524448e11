"""Unit tests for sitegen.owners: one owner per output path."""

from __future__ import annotations

from sitegen.owners import OutputOwners


def messages(owners: OutputOwners) -> list[str]:
    return [f"{e.path}: {e.message}" for e in owners.check()]


def test_a_second_claim_on_one_path_names_both_owners_and_the_first_keeps_it() -> None:
    owners = OutputOwners()
    owners.claim(["feed.xml"], "content/feed.md")
    owners.claim(["feed.xml", "sitemap.xml"], "the generated feeds file")
    assert owners.owners == {"feed.xml": "content/feed.md", "sitemap.xml": "the generated feeds file"}
    assert messages(owners) == [
        "content/feed.md: two sources write the output file `feed.xml`: content/feed.md and the generated feeds file"]


def test_claims_by_the_same_owner_are_not_collisions() -> None:
    owners = OutputOwners()
    owners.claim(["a/index.html"], "content/a.md")
    owners.claim(["a/index.html"], "content/a.md")
    assert messages(owners) == []


def test_a_file_where_another_claim_needs_a_folder_is_an_error() -> None:
    owners = OutputOwners()
    owners.claim(["v1.0/notes.txt"], "static/v1.0/notes.txt")
    owners.claim(["v1.0"], {"v1.0": "content/v.md"})
    (message,) = messages(owners)
    assert message.startswith("content/v.md: `v1.0` would be both a file (from content/v.md)")
    assert "static/v1.0/notes.txt" in message


def test_paths_under_dot_folders_or_outside_the_output_are_errors_but_well_known_is_published() -> None:
    owners = OutputOwners()
    owners.claim([".git/HEAD/index.html"], "content/p.md")
    owners.claim(["../x.html"], "content/q.md")
    owners.claim([".well-known/security.txt", ".nojekyll"], "static/x")
    found = sorted(m.split(": it ")[0] for m in messages(owners))
    assert found == ["content/p.md: cannot write the output file `.git/HEAD/index.html`",
                     "content/q.md: cannot write the output file `../x.html`"]


def test_a_description_is_not_taken_for_a_file_name() -> None:
    owners = OutputOwners()
    owners.claim(["sitemap.xml"], "the generated sitemap file")
    owners.claim(["sitemap.xml"], "the theme's static/sitemap.xml")
    owners.claim(["tags/index.html"], "_taxonomies/tags")
    owners.claim(["tags/index.html"], "the generated tags file")
    assert [e.path for e in owners.check()] == [None, None]
