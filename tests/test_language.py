"""helpers.language: one choice of language, English by default, read by every helper."""

import pytest

import helpers
from helpers.language import (
    LANGUAGES,
    Catalogue,
    catalogues,
    choose,
    get_language,
    set_language,
    speaking,
)


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    set_language("en")


def test_english_is_the_default():
    assert get_language() == "en"


def test_set_language_is_what_get_language_reports():
    set_language("zh")
    assert get_language() == "zh"


def test_the_package_exports_the_choice():
    helpers.set_language("zh")
    assert helpers.get_language() == "zh"


@pytest.mark.parametrize(
    ("spelling", "code"),
    [
        ("zh", "zh"),
        ("zh-CN", "zh"),
        ("zh_CN", "zh"),
        ("zh-Hans", "zh"),
        ("ZH-hans-cn", "zh"),
        ("cn", "zh"),
        ("CN", "zh"),
        ("Chinese", "zh"),
        ("中文", "zh"),
        (" 简体中文 ", "zh"),
        ("EN", "en"),
        ("en-US", "en"),
        ("en_GB", "en"),
        ("English", "en"),
        ("英文", "en"),
    ],
)
def test_the_usual_spellings_of_both_languages_are_understood(spelling, code):
    set_language("en" if code == "zh" else "zh")
    set_language(spelling)
    assert get_language() == code


@pytest.mark.parametrize("language", ["fr", "", None, ["zh"], "chinese please", "z"])
def test_an_unknown_language_is_refused_in_both_languages(language):
    with pytest.raises(ValueError) as refused:
        set_language(language)
    message = str(refused.value)
    assert '"en"' in message and '"zh"' in message
    assert "knows English" in message and "认识英文" in message
    assert get_language() == "en"


def test_choose_picks_the_text_of_the_current_language():
    texts = {"en": "step", "zh": "步"}
    assert choose(texts) == "step"
    set_language("zh")
    assert choose(texts) == "步"


def test_choose_falls_back_to_english_for_a_text_not_translated():
    set_language("zh")
    assert choose({"en": "step"}) == "step"


def test_speaking_chooses_a_language_for_a_block_only():
    set_language("zh")
    with speaking("en"):
        assert get_language() == "en"
    assert get_language() == "zh"


def test_speaking_restores_the_language_when_the_block_raises():
    with pytest.raises(RuntimeError), speaking("zh"):
        raise RuntimeError("inside")
    assert get_language() == "en"


def test_speaking_an_unknown_language_changes_nothing():
    with pytest.raises(ValueError), speaking("fr"):
        pass
    assert get_language() == "en"


def test_every_language_has_a_name_a_learner_recognises():
    assert LANGUAGES["en"] == "English" and "中文" in LANGUAGES["zh"]


def test_a_catalogue_says_its_text_in_the_current_language_with_blanks_filled():
    catalogue = Catalogue("test", {"count": {"en": "{n:,} nodes", "zh": "{n:,} 个节点"}})
    assert catalogue.say("count", n=1200) == "1,200 nodes"
    with speaking("zh"):
        assert catalogue.say("count", n=1200) == "1,200 个节点"


def test_a_catalogue_fills_blanks_once_so_braces_in_values_stay():
    catalogue = Catalogue("test", {"got": {"en": "got {value}", "zh": "得到 {value}"}})
    assert catalogue.say("got", value="{'w': w}") == "got {'w': w}"


@pytest.mark.parametrize(
    "entry",
    [
        {"en": "only English"},
        {"en": "one", "zh": "一", "fr": "un"},
        {"en": "{count} nodes", "zh": "个节点"},
        {"en": "nodes", "zh": "{count} 个节点"},
        {"en": "", "zh": "空"},
        "not a mapping",
    ],
)
def test_a_catalogue_entry_without_every_language_or_blank_is_refused(entry):
    with pytest.raises(TypeError, match="'bad'"):
        Catalogue("test", {"bad": entry})


def test_every_helper_catalogue_gives_every_language_with_the_same_blanks():
    import helpers.exercises
    import helpers.plot  # noqa: F401

    helpers.exercises.exercises()
    import helpers.backward_view
    import helpers.device
    import helpers.graph  # noqa: F401

    found = {catalogue.module for catalogue in catalogues()}
    assert {"helpers.graph", "helpers.backward", "helpers.plot", "helpers.device"} <= found
    for catalogue in catalogues():
        for key, entry in catalogue.texts.items():
            assert set(entry) == set(LANGUAGES), (catalogue.module, key)
            assert all(text.strip() for text in entry.values()), (catalogue.module, key)
