"""Every test runs with its own cache folder (NOMIC_ARCHIVE_CACHE_DIR), never the user's."""
from __future__ import annotations

import pytest

from generator.cache import CACHE_ENV


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        yield
