"""The phone menu, from the keyboard: the open panel never hides the link that has focus."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

_IS_OPEN = 'return document.querySelector("details.nav-menu").open'


def _wait(driver, script: str, expected, timeout: float = 3):
    deadline = time.monotonic() + timeout
    value = driver.execute_script(script)
    while value != expected and time.monotonic() < deadline:
        time.sleep(0.05)
        value = driver.execute_script(script)
    return value


def _open_menu(browser, url: str):
    problems = browser.open(url, 390)
    assert not problems, "\n".join(problems)
    driver = browser.driver
    summary = driver.find_element(By.CSS_SELECTOR, "details.nav-menu summary")
    summary.send_keys(Keys.ENTER)
    assert _wait(driver, _IS_OPEN, True), "Enter on the Menu button opens the menu"
    return driver, summary


def test_escape_closes_the_menu_and_focus_returns_to_its_button(browser, example_site):
    driver, _ = _open_menu(browser, example_site.url("tags/"))
    links = driver.find_elements(By.CSS_SELECTOR, "details.nav-menu li a")
    links[0].send_keys(Keys.ESCAPE)
    assert _wait(driver, _IS_OPEN, False) is False, "Escape in the open menu closes it"
    focused = driver.execute_script('return document.activeElement.matches("details.nav-menu summary")')
    assert focused, "after Escape, focus is back on the Menu button"


def test_tabbing_out_of_the_menu_closes_it_so_the_focused_link_is_visible(browser, example_site):
    driver, _ = _open_menu(browser, example_site.url("tags/"))
    links = driver.find_elements(By.CSS_SELECTOR, "details.nav-menu li a")
    links[-1].send_keys(Keys.TAB)
    assert _wait(driver, _IS_OPEN, False) is False, "Tab past the menu's last link closes the menu"
    # The focused element is the one drawn at its centre (not hidden under the menu's panel).
    hidden = driver.execute_script(
        "const active = document.activeElement;"
        "const box = active.getBoundingClientRect();"
        "const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);"
        "return top && !active.contains(top) && !top.contains(active) ? top.outerHTML.slice(0, 120) : null;"
    )
    assert hidden is None, f"the focused link is covered by {hidden}"


def test_a_click_outside_the_open_menu_closes_it(browser, example_site):
    driver, _ = _open_menu(browser, example_site.url("tags/"))
    ActionChains(driver).move_to_element_with_offset(
        driver.find_element(By.CSS_SELECTOR, ".site-footer"), 0, 0
    ).click().perform()
    assert _wait(driver, _IS_OPEN, False) is False, "a click outside the open menu closes it"
