"""Reading a vcrpy cassette before a replayed run: every problem is one line (``BadFile``).

``lichess`` re-exports ``cassette_time``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from lichess_elo.errors import BadFile

if TYPE_CHECKING:
    from pathlib import Path


def unreadable(path: Path, why: str) -> BadFile:
    """The one-line error for a cassette that cannot be used."""
    return BadFile(path, f"not a readable vcrpy cassette ({why})", field="replay")


def _load_cassette(path: Path) -> list[Any]:
    """The interactions of a vcrpy cassette; every problem is one line (``BadInput``)."""
    import yaml  # only a replayed run reads YAML

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise unreadable(path, "not UTF-8 text") from None
    except OSError as exc:
        raise unreadable(path, exc.strerror or type(exc).__name__) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise unreadable(path, f"YAML error{where}") from None
    interactions = data.get("interactions") if isinstance(data, dict) else None
    if not isinstance(interactions, list) or not interactions:
        raise unreadable(path, "no interactions")
    return interactions


class _Damaged(ValueError):
    """One interaction that vcrpy could not replay; the message says what is wrong."""


def _check_response(response: Any) -> None:
    code = response["status"]["code"]
    if isinstance(code, bool) or not isinstance(code, int) or not 100 <= code <= 599:
        raise _Damaged(f"status code {code!r} is not an HTTP status")
    body = response["body"]
    if not isinstance(body, dict) or not isinstance(body.get("string"), str | bytes):
        raise _Damaged("body is not a mapping with a 'string'")
    if not isinstance(response["headers"], dict):
        raise _Damaged("headers are not a mapping")


def _interaction_dates(item: Any) -> list[datetime]:
    """The Date headers of one recorded interaction, after checking what vcrpy needs."""
    request, response = item["request"], item["response"]
    if not (request["method"] and request["uri"] and "code" in response["status"]):
        raise KeyError("method, uri or status")
    if "body" not in response:
        raise KeyError("body")
    _check_response(response)
    from email.utils import parsedate_to_datetime  # only a cassette's run reads its dates

    dates: list[datetime] = []
    for key, values in response["headers"].items():
        if str(key).lower() == "date":
            for value in values if isinstance(values, list) else [values]:
                dates.append(parsedate_to_datetime(str(value)))
    return dates


def _request_of(item: Any) -> str:
    try:
        return f" ({item['request']['method']} {item['request']['uri']})"
    except (KeyError, TypeError):
        return ""


def cassette_time(path: Path) -> datetime:
    """A cassette's recording time: the latest ``Date`` header of its responses.

    Raises:
        BadInput: the file is missing, not a cassette (one line: the YAML error's line and
            column, "no interactions", the malformed interaction), or has no Date header.
    """
    stamps: list[datetime] = []
    for number, item in enumerate(_load_cassette(path), start=1):
        try:
            stamps.extend(_interaction_dates(item))
        except _Damaged as exc:
            raise unreadable(path, f"interaction {number}{_request_of(item)}: {exc}") from None
        except (KeyError, TypeError, AttributeError, ValueError, IndexError):
            raise unreadable(
                path, f"interaction {number}{_request_of(item)} is malformed"
            ) from None
    if not stamps:
        problem = "no response has a Date header (the recording time)"
        raise BadFile(path, problem, field="replay")
    return max(stamps).astimezone(UTC)
