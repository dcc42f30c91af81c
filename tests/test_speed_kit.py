"""The map index built the quick way (issue #17) says what the map itself says, hex by hex; packaged
files' kept copies and kept indexes are used only for the exact bytes and code they came from."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import marshal
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.core import canonical_read, scalar_style, yamlio
from pbem.core.errors import PbemError
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.kit import tables
from pbem.rulesets.kit.hexboard import HexIndex, load_map, map_index

MAPS = [
    ("pbem.rulesets.fbsm.data", "map.yaml"),
    ("pbem.rulesets.toc.data", "map.yaml"),
    ("pbem.rulesets.bob.data", "board1.yaml"),
]

# a small map with omitted hexes and an edge, so "on the map" is decided by more than the bounds
HOLED = {
    "bounds": {"columns": [1, 4], "rows": [1, 3]}, "stagger": "odd-low", "north": 0,
    "default_terrain": "clear", "omit": ["0202", "0401"],
    "hexes": {"0101": {"terrain": "woods"}, "0303": {"features": ["town"]}},
    "hexsides": [], "sets": {"edge": ["0101", "0102"]}, "assumed": True, "source": "test",
}


# the other stagger, and a map reaching both ends of the printed ids (00 and 99), where the index's
# packed coordinates are furthest apart
EVEN = {**HOLED, "stagger": "even-low"}
CORNERS = {**HOLED, "bounds": {"columns": [0, 99], "rows": [0, 99]}, "omit": ["0000", "9999", "5050"],
           "hexes": {"0099": {"terrain": "woods"}, "9900": {"features": ["town"]}}, "stagger": "even-low"}


def _maps() -> list[HexMap]:
    return ([load_map("m", package, {"m": name}) for package, name in MAPS]
            + [HexMap.from_dict(doc) for doc in (HOLED, EVEN, CORNERS, {**CORNERS, "stagger": "odd-low"})])


@pytest.mark.parametrize("hexmap", _maps(), ids=["fbsm", "toc", "bob", "holed", "even", "corners", "corners-odd"])
def test_index_matches_the_map(hexmap: HexMap) -> None:
    index = HexIndex.of(hexmap)
    hexes = hexmap.hexes()
    assert sorted(index.terrain_of) == [h.id for h in hexes]
    for h in hexes:
        assert index.terrain_of[h.id] == hexmap.terrain(h)
        assert index.features_of[h.id] == hexmap.features(h)
        assert index.neighbours_of[h.id] == tuple(n.id for n in hexmap.neighbours(h))
        assert index.cube_of[h.id] == hexmap.grid.to_cube(h).coords()


def test_an_omitted_hex_is_nobody_s_neighbour() -> None:
    index = HexIndex.of(HexMap.from_dict(HOLED))
    assert "0202" not in index.terrain_of
    assert all("0202" not in around and "0401" not in around for around in index.neighbours_of.values())
    assert index.terrain("0101") == "woods" and index.terrain("0102") == "clear"


# --- kept copies of packaged files (kit.tables): used only for the exact bytes and reader they came from ------

PACKAGED = [("pbem.rulesets.fbsm.data", "map.yaml"), ("pbem.rulesets.fbsm.data", "tables.yaml"),
            ("pbem.rulesets.toc.data", "oob.yaml"), ("pbem.rulesets.bst.data", "terrain.yaml")]


def _typed(value: Any) -> Any:
    if type(value) is dict:
        return ("dict", [(key, _typed(item)) for key, item in value.items()])
    if type(value) is list:
        return ("list", [_typed(item) for item in value])
    return (type(value).__name__, value)


@pytest.fixture
def byte_code_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Python writing byte-code under a scratch PYTHONPYCACHEPREFIX, so kept copies go there."""
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path


def _read(package: str, name: str) -> Any:
    return tables.packaged_yaml.__wrapped__(package, name)  # without the in-process memo


def _strict(package: str, name: str) -> Any:
    return yamlio.load_bytes(yamlio.read_packaged(package, name), name).data


@pytest.mark.parametrize("package,name", PACKAGED)
def test_a_kept_copy_reads_as_the_strict_loader_reads(byte_code_cache: Path, package: str, name: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = _read(package, name)
    assert len(list(byte_code_cache.rglob("*.json"))) == 1
    monkeypatch.setattr(yamlio, "load_packaged", _never)  # the second read takes the kept copy
    assert _typed(_read(package, name)) == _typed(first) == _typed(_strict(package, name))


def _never(data: bytes, file: str) -> Any:
    raise AssertionError("read again although a good copy was kept")


@pytest.mark.parametrize("found", [{"table": {1: "hit", 2: "miss"}}, {"when": __import__("datetime").date(1918, 7, 15)},
                                   {"rows": [{"a": (1, 2)}]}, {True: 1}])
def test_what_json_would_change_is_never_kept(byte_code_cache: Path, found: dict[Any, Any]) -> None:
    path = yamlio.packaged_file(*PACKAGED[1])
    assert path is not None
    data = yamlio.read_packaged(*PACKAGED[1])
    tables.keep_copy(path, data, found)  # no error, and no copy that would read back changed
    assert not list(byte_code_cache.rglob("*.json"))
    tables.keep_copy(path, data, {"table": {"1": "hit"}})
    assert tables.kept_copy(path, data) == {"table": {"1": "hit"}}


def test_no_copy_is_kept_when_python_writes_no_byte_code(byte_code_cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _read(*PACKAGED[0])
    assert not list(byte_code_cache.rglob("*.json"))


def test_a_copy_of_other_bytes_or_another_reader_is_not_used(byte_code_cache: Path) -> None:
    path = yamlio.packaged_file(*PACKAGED[1])
    assert path is not None
    data = yamlio.read_packaged(*PACKAGED[1])
    tables.keep_copy(path, data, {"hostile": True})
    assert tables.kept_copy(path, data) == {"hostile": True}  # a copy is trusted as the byte-code beside it is
    assert tables.kept_copy(path, data + b"\n# changed\n") is None  # stale: the file's bytes changed
    assert tables.kept_copy_path(path, data) != tables.kept_copy_path(path, data + b" ")
    other = Path(tables.__file__).with_name("plain.py")  # a source file that is not the one read
    for module in (importlib.import_module("yaml"), yamlio, canonical_read, scalar_style):  # another reader
        tables._reader_key.cache_clear()
        try:
            with pytest.MonkeyPatch.context() as patch:
                if module.__name__ == "yaml":
                    found = importlib.util.find_spec("yaml")
                    assert found is not None
                    spec = copy.copy(found)  # (not the module's own spec: changed, it would stay changed)
                    spec.origin = str(other)  # another PyYAML (the key reads its package's source)
                    patch.setattr(importlib.util, "find_spec", lambda name, *rest: spec)
                else:
                    patch.setattr(module, "__file__", str(other))
                assert tables.kept_copy(path, data) is None, module.__name__
        finally:
            tables._reader_key.cache_clear()
    assert tables.kept_copy(path, data) == {"hostile": True}  # and the same reader again finds it


@pytest.mark.parametrize("damage", ["body", "header", "truncated", "empty", "not json"])
def test_a_damaged_copy_is_passed_over_and_the_file_read_again(byte_code_cache: Path, damage: str) -> None:
    package, name = PACKAGED[1]
    path = yamlio.packaged_file(package, name)
    assert path is not None
    data = yamlio.read_packaged(package, name)
    _read(package, name)
    kept = Path(tables.kept_copy_path(path, data))
    text = kept.read_bytes()
    header, _, body = text.partition(b"\n")
    damaged = {"body": header + b"\n" + body.replace(b"true", b"false", 1),
               "header": header.replace(b'"body": "', b'"body": "0', 1) + b"\n" + body,
               "truncated": text[:-10], "empty": b"", "not json": header + b"\n{"}[damage]
    assert damaged != text
    kept.write_bytes(damaged)
    assert tables.kept_copy(path, data) is None
    assert _typed(_read(package, name)) == _typed(_strict(package, name))
    assert kept.read_bytes() == text  # and kept again, whole


def test_a_copy_kept_under_other_rules_for_keeping_is_not_used(byte_code_cache: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy is tied to kit/tables.py's own source too: a copy written by an older rule for what may
    be kept (before the exact-JSON check, say) is stale once that rule changes."""
    path = yamlio.packaged_file(*PACKAGED[1])
    assert path is not None
    data = yamlio.read_packaged(*PACKAGED[1])
    tables._reader_key.cache_clear()
    tables.keep_copy(path, data, {"kept": "under today's rules"})
    assert tables.kept_copy(path, data) == {"kept": "under today's rules"}
    other = tmp_path / "tables.py"
    other.write_bytes(Path(tables.__file__).read_bytes() + b"\n# another rule for keeping\n")
    monkeypatch.setattr(tables, "__file__", str(other))
    tables._reader_key.cache_clear()
    try:
        assert tables.kept_copy(path, data) is None
    finally:
        monkeypatch.undo()
        tables._reader_key.cache_clear()


# --- kept map indexes (kit.hexboard.map_index): the index of a packaged map, read back with marshal ------


def _built_again(*args: Any, **kwargs: Any) -> HexIndex:
    raise AssertionError("indexed again although a good index was kept")


def _kept_indexes(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.index"))


@pytest.mark.parametrize("package,name", MAPS, ids=["fbsm", "toc", "bob"])
def test_a_kept_index_is_the_index_of_the_map(byte_code_cache: Path, package: str, name: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = HexIndex.of(load_map("m", package, {"m": name}))
    first = map_index("m", package, {"m": name})
    assert len(_kept_indexes(byte_code_cache)) == 1
    monkeypatch.setattr(HexIndex, "of", _built_again)
    kept = map_index("m", package, {"m": name})
    assert kept is not first and kept._map is None  # read back, its map not loaded yet
    assert [_typed(field) for field in kept.fields()] == [_typed(field) for field in fresh.fields()]
    assert kept.grid == fresh.grid and kept.hexes() == fresh.hexes()
    assert kept.map == fresh.map  # loaded when asked for, and the same map
    some = fresh.hexes()[len(fresh.hexes()) // 2]
    assert kept.neighbours(some) == fresh.neighbours(some) and kept.distance(some, fresh.hexes()[0]) == \
        fresh.distance(some, fresh.hexes()[0])


def _typed_all(value: Any) -> Any:
    """`_typed`, into tuples too (an index holds tuples, which a copy must give back as tuples)."""
    if type(value) is tuple:
        return ("tuple", [_typed_all(item) for item in value])
    if type(value) is dict:
        return ("dict", [(_typed_all(key), _typed_all(item)) for key, item in value.items()])
    return _typed(value)


def test_a_kept_index_keeps_every_type(byte_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package, name = MAPS[0]
    fresh = map_index("m", package, {"m": name})
    monkeypatch.setattr(HexIndex, "of", _built_again)
    kept = map_index("m", package, {"m": name})
    assert _typed_all(kept.fields()) == _typed_all(fresh.fields())


@pytest.mark.parametrize("damage", ["body", "header", "truncated", "empty", "not marshal", "other shape"])
def test_a_damaged_index_is_passed_over_and_built_again(byte_code_cache: Path, damage: str) -> None:
    package, name = MAPS[0]
    good = map_index("m", package, {"m": name})
    (kept,) = _kept_indexes(byte_code_cache)
    text = kept.read_bytes()
    header, _, body = text.partition(b"\n")
    with_body = lambda new: header.replace(  # noqa: E731  (a copy whose header fits a new body)
        hashlib_hex(body).encode(), hashlib_hex(new).encode()) + b"\n" + new
    middle = len(body) // 2
    damaged = {"body": header + b"\n" + body[:middle] + bytes([body[middle] ^ 1]) + body[middle + 1:],
               "header": header.replace(b'"body": "', b'"body": "0', 1) + b"\n" + body,
               "truncated": text[:-10], "empty": b"", "not marshal": with_body(b"\xff\x00garbage"),
               "other shape": with_body(marshal.dumps(("odd-low", {}, {})))}[damage]
    assert damaged != text
    kept.write_bytes(damaged)
    again = map_index("m", package, {"m": name})
    assert again._map is not None  # built from the map, not read from the damaged copy
    assert _typed_all(again.fields()) == _typed_all(good.fields())
    assert kept.read_bytes() == text  # and kept again, whole


def hashlib_hex(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("module", ["hexboard", "hexmap", "hexgrid", "reader"])
def test_an_index_kept_by_other_code_is_not_used(byte_code_cache: Path, tmp_path: Path, module: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.geometry import hexgrid, hexmap
    from pbem.rulesets.kit import hexboard

    package, name = MAPS[1]
    map_index("m", package, {"m": name})
    owner = {"hexboard": hexboard, "hexmap": hexmap, "hexgrid": hexgrid, "reader": yamlio}[module]
    other = tmp_path / "other.py"
    other.write_bytes(Path(owner.__file__ or "").read_bytes() + b"\n# changed\n")
    built: list[int] = []
    real_of = HexIndex.of.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(HexIndex, "of", classmethod(lambda cls, m: built.append(1) or real_of(cls, m)))
    monkeypatch.setattr(owner, "__file__", str(other))
    for cached in (hexboard._index_key, tables._reader_key):
        cached.cache_clear()
    try:
        map_index("m", package, {"m": name})
    finally:
        monkeypatch.undo()
        hexboard._index_key.cache_clear()
        tables._reader_key.cache_clear()
    assert built == [1]


def test_a_kept_index_still_needs_the_sets_the_rules_use(byte_code_cache: Path) -> None:
    package, name = MAPS[0]
    map_index("m", package, {"m": name})
    assert _kept_indexes(byte_code_cache)
    with pytest.raises(PbemError, match="the map lacks the hex sets no-such-set"):
        map_index("m", package, {"m": name}, ("riverbank", "no-such-set"))


def test_a_scenario_s_own_map_is_never_kept(byte_code_cache: Path) -> None:
    index = map_index(HOLED, MAPS[0][0], {"m": MAPS[0][1]})
    assert index.terrain("0101") == "woods" and index._map is not None
    assert not _kept_indexes(byte_code_cache)
    with pytest.raises(PbemError, match="unknown map 'nowhere'"):
        map_index("nowhere", MAPS[0][0], {"m": MAPS[0][1]})


def test_no_index_is_kept_when_python_writes_no_byte_code(byte_code_cache: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    map_index("m", *MAPS[0][:1], {"m": MAPS[0][1]})
    assert not _kept_indexes(byte_code_cache)
