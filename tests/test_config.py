"""content/site.yaml: every value checked once, at load; errors are one line naming the file and the key."""

from pathlib import Path

import pytest

from generator.config import load_config
from generator.errors import InputError
from generator.validation import SHOWN_MAX_CHARS


def write_config(tmp_path, text: str) -> Path:
    path = tmp_path / "site.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        load_config(path)
    message = caught.value.message
    assert "\n" not in message and message.startswith(str(path)), message
    return message


def test_unreadable_config_is_one_line_naming_the_file(tmp_path):
    binary = tmp_path / "site.yaml"
    binary.write_bytes(bytes(range(256)) * 4)
    assert "not UTF-8 text" in load_error(binary)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    assert "is a directory" in load_error(folder)


def test_quoted_values_in_errors_are_short_and_escaped(tmp_path):
    message = load_error(write_config(tmp_path, f"k\u00a0{'k' * 500}: 1\n"))
    assert "unknown key" in message and len(message) < len(str(tmp_path)) + 2 * SHOWN_MAX_CHARS + 80
    assert message.isprintable(), message
