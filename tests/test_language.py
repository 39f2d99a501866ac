"""helpers.language: one choice of language, English by default, read by every helper."""

import pytest

import helpers
from helpers.language import LANGUAGES, choose, get_language, set_language, speaking


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


@pytest.mark.parametrize("language", ["cn", "zh-CN", "", None, ["zh"], "EN"])
def test_an_unknown_language_is_refused_naming_the_known_ones(language):
    with pytest.raises(ValueError, match=r'"en" \(English\), "zh"'):
        set_language(language)
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
