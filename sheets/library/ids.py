"""Fields every printable model shares."""
from __future__ import annotations

from pydantic import Field

Id = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
