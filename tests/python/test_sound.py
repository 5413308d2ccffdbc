"""Container.sound (issue 27): Oni SNDD sounds decoded to int16 PCM, checked against FFmpeg's
decode of the same stored bytes (../shared/goldens/oni/sounds/ref_pcm, README there)."""
import json
import os
import sys

import pytest

import assay
from conftest import SHARED, on_ci

GOLDENS = os.path.join(os.path.dirname(SHARED), "goldens", "oni", "sounds")


def require_goldens():
    if not os.path.isdir(GOLDENS):
        if on_ci():
            pytest.fail(f"goldens {GOLDENS} missing (CI=true)")
        pytest.skip(f"goldens {GOLDENS} not present")


def golden(level, name):
    with open(os.path.join(GOLDENS, "json", f"{level}__{name}.json")) as f:
        return json.load(f)


@pytest.mark.parametrize("level,name", [
    ("GameDataFolder", "SNDDnoise_s22"),          # MS ADPCM stereo
    ("GameDataFolder", "SNDDpcm16_sine440_m22"),  # PCM
    ("GameDataFolder_sep", "SNDDnoise_s22"),      # IMA4 stereo
])
def test_sound_equals_ffmpeg(level, name):
    require_goldens()
    c = assay.open(os.path.join(GOLDENS, level, "level0_Final.dat"))
    e = c.find(name)
    assert e is not None and e.kind == "sound"
    ref = golden(level, name)["reference_pcm"]
    s = c.sound(e)
    assert (s.rate, s.channels, s.frames) == (ref["rate"], ref["channels"], ref["frames"])
    pcm = s.pcm
    assert pcm.format == "h" and pcm.shape == (ref["frames"], ref["channels"])
    with open(os.path.join(GOLDENS, ref["file"]), "rb") as f:
        want = f.read()
    got = s.tobytes() if sys.byteorder == "little" else bytes(memoryview(s.tobytes()).cast("h").tolist())
    assert got == want
    assert pcm.tobytes() == s.tobytes()
    wav = s.to_wav()
    assert wav[:4] == b"RIFF" and wav[44:] == s.tobytes()


def test_sound_of_other_entry_is_an_error():
    require_goldens()
    c = assay.open(os.path.join(GOLDENS, "GameDataFolder", "level0_Final.dat"))
    with pytest.raises(assay.FormatError):
        c.sound(c.find("OSBDgrp_sine"))


def test_extract_sounds_writes_the_golden_pcm(tmp_path):
    """assay.extract(..., sounds=True) writes NAME.wav as `extract --sounds` does: a 44-byte PCM
    header, then FFmpeg's reference samples."""
    require_goldens()
    written = assay.extract(os.path.join(GOLDENS, "GameDataFolder", "level0_Final.dat"), tmp_path,
                            ["SNDDnoise_s22*"], sounds=True)
    wav = os.path.join(str(tmp_path), "SNDDnoise_s22.wav")
    assert wav in [str(p) for p in written]
    ref = golden("GameDataFolder", "SNDDnoise_s22")["reference_pcm"]
    with open(wav, "rb") as f:
        b = f.read()
    assert b[:4] == b"RIFF" and b[8:12] == b"WAVE"
    assert int.from_bytes(b[22:24], "little") == ref["channels"]
    assert int.from_bytes(b[24:28], "little") == ref["rate"]
    with open(os.path.join(GOLDENS, ref["file"]), "rb") as f:
        assert b[44:] == f.read()


def test_adpcm_entries_name_the_file_extract_writes():
    """With adpcm=True, a Mac (IMA4) sound is NAME.aifc in the entry list as on disk, a PC one
    NAME.wav (goldens/oni/sounds: the _sep level holds IMA4 data, the PC level MS ADPCM and PCM)."""
    require_goldens()
    mac = assay.open(os.path.join(GOLDENS, "GameDataFolder_sep", "level0_Final.dat"), adpcm=True)
    assert sorted(e.path for e in mac.entries if e.kind == "sound") == [
        "SNDDchirp_m22.aifc", "SNDDnoise_s22.aifc", "SNDDsine440_m22.aifc"]
    pc = assay.open(os.path.join(GOLDENS, "GameDataFolder", "level0_Final.dat"), adpcm=True)
    assert all(e.path.endswith(".wav") for e in pc.entries if e.kind == "sound")
