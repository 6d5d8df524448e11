"""Academic pages in headless Chromium: the publications page's abstract and BibTeX toggles, copy button,
filters and plain list without JavaScript; a talk's time in the visitor's own zone."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_abstract_and_bibtex_toggle_and_the_copy_button_copies_the_entry(browser: Any,
                                                                         example_site_url: str) -> None:
    ctx = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    page.goto(example_site_url + "/publications/")
    entry = page.locator("#lin2024remat")
    abstract = entry.locator(".pub-abstract p")
    assert not abstract.is_visible()
    entry.locator(".pub-abstract summary").click()
    assert abstract.is_visible() and "integer program" in abstract.inner_text()
    entry.locator(".pub-abstract summary").click()
    assert not abstract.is_visible()
    code = entry.locator(".pub-bibtex code")
    copy = entry.locator(".pub-bibtex .pub-copy")
    assert not code.is_visible() and not copy.is_visible()
    entry.locator(".pub-bibtex summary").click()
    assert code.is_visible() and copy.is_visible()
    copy.click()
    page.wait_for_function("document.querySelector('#lin2024remat .pub-copy').textContent === 'Copied'")
    copied = page.evaluate("navigator.clipboard.readText()")
    ctx.close()
    assert copied.startswith("@inproceedings{lin2024remat,") and copied.rstrip().endswith("}")
    assert "selected" not in copied and "abbr" not in copied


def test_filters_by_year_and_type(browser: Any, example_site_url: str) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(example_site_url + "/publications/")
    assert page.locator(".pub-filter").is_visible()
    visible = "els => els.filter(e => e.offsetParent !== null).map(e => e.id)"
    everything = page.eval_on_selector_all(".pub[data-year]", visible)
    page.select_option(".pub-filter select[name=year]", "2024")
    in_2024 = page.eval_on_selector_all(".pub[data-year]", visible)
    page.select_option(".pub-filter select[name=type]", "conference")
    both = page.eval_on_selector_all(".pub[data-year]", visible)
    years_shown = page.eval_on_selector_all(".pub-year h2", "els => els.filter(e => e.offsetParent !== null)"
                                                            ".map(e => e.textContent)")
    count = page.inner_text(".pub-count")
    ctx.close()
    assert len(everything) == 4
    assert in_2024 == ["lin2024quantised", "lin2024remat"]
    assert both == ["lin2024remat"] and years_shown == ["2024"] and count == "1 of 4"


def test_without_javascript_the_page_is_a_plain_list_and_details_still_toggle(browser: Any,
                                                                              example_site_url: str) -> None:
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto(example_site_url + "/publications/")
    filter_visible = page.locator(".pub-filter").is_visible()
    shown = page.eval_on_selector_all(".pub[data-year]", "els => els.filter(e => e.offsetParent !== null).length")
    page.locator("#lin2024remat .pub-bibtex summary").click()
    code_visible = page.locator("#lin2024remat .pub-bibtex code").is_visible()
    copies = page.locator(".pub-copy").count()
    ctx.close()
    assert not filter_visible and shown == 4 and code_visible and copies == 0


def test_a_talk_shows_the_visitors_own_time_when_their_zone_differs(browser: Any, example_site_url: str) -> None:
    tokyo = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB")
    page = tokyo.new_page()
    page.goto(example_site_url + "/talks/pipeline-scheduling/")  # 09:00 in Shanghai is 10:00 in Tokyo
    page.wait_for_selector(".talk-local")
    local = page.inner_text(".talk-local")
    tokyo.close()
    shanghai = browser.new_context(timezone_id="Asia/Shanghai")
    page = shanghai.new_page()
    page.goto(example_site_url + "/talks/pipeline-scheduling/")
    page.wait_for_load_state("load")
    same_zone = page.locator(".talk-local").count()
    shanghai.close()
    assert "10:00" in local and "18 Mar" in local and same_zone == 0
