#!/usr/bin/env python3
"""Checks assay's Oni exporters on levels that OniSplit itself writes (a local check, not part of CI:
it needs Mono and an OniSplit source checkout, neither of which the project ships or installs).

It writes inputs of its own (a textured OBJ box, a two-material COLLADA room, a COLLADA node animated
by translate and rotate channels), has OniSplit make M3GM, TXMP, AKEV and OBAN instances from them
(-create:m3gm, -create:txmp, -create:akev, -create:oban), imports them into a PC level (-import:nosep)
and a Mac-layout level (-import:sep), builds a whole level with -create:level (the room as its
environment, a rooms COLLADA file, a physics object playing the OBAN on the M3GM: AKEV, ONLV, OBOA,
the BINA object lists) and imports it, then runs `assay verify` and `assay extract --models
--textures` on the levels and the Khronos validator (tests/node) on every GLB, and checks the OBAN's
keys against the animation the COLLADA file states (translation Y 0 -> 10 over 0.5 s, then X 0 -> 5;
rotation about Y 0 -> 90 degrees over 1 s) and that the whole level's OBAN takes its OBOA's geometry.

Usage: python3 scripts/onisplit-check.py ASSAY ONISPLIT_SOURCE_DIR [WORKDIR]
(Debian: apt-get install mono-mcs mono-runtime libmono-system-core4.0-cil libmono-system-xml-linq4.0-cil
libmono-system-drawing4.0-cil; OniSplit: github.com/Paradox-01/OniSplit_v0.9.99.2_DX.)
"""
import glob
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def png(path, w, h, f):
    raw = b"".join(b"\0" + bytes(c for x in range(w) for c in f(x, y)) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    with open(path, "wb") as o:
        o.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def box_obj(path):
    v = [(x, y, z) for x in (-1, 1) for y in (0, 2) for z in (-1, 1)]
    vi = lambda x, y, z: x * 4 + y * 2 + z + 1
    faces = [[(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)], [(0, 0, 1), (0, 1, 1), (0, 1, 0), (0, 0, 0)],
             [(0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)], [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)],
             [(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)], [(1, 0, 0), (0, 0, 0), (0, 1, 0), (1, 1, 0)]]
    lines = ["mtllib box.mtl"] + ["v %g %g %g" % p for p in v] + ["vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1"]
    lines += ["vn 1 0 0", "vn -1 0 0", "vn 0 1 0", "vn 0 -1 0", "vn 0 0 1", "vn 0 0 -1", "usemtl brick"]
    lines += ["f " + " ".join("%d/%d/%d" % (vi(*p), k + 1, n + 1) for k, p in enumerate(q)) for n, q in enumerate(faces)]
    open(path, "w").write("\n".join(lines) + "\n")
    open(os.path.join(os.path.dirname(path), "box.mtl"), "w").write("newmtl brick\nmap_Kd brick.png\n")


def source(sid, values, stride, names):
    params = "".join('<param name="%s" type="float"/>' % n for n in names)
    return ('<source id="%s"><float_array id="%s_a" count="%d">%s</float_array><technique_common><accessor source="#%s_a" '
            'count="%d" stride="%d">%s</accessor></technique_common></source>' % (sid, sid, len(values), " ".join("%g" % x for x in values),
                                                                                   sid, len(values) // stride, stride, params))


def room_dae(path):
    pos = [-10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10, -10, 5, -10, 10, 5, -10, -10, 5, 10]
    tris = {"brick": [((0, 3, 2, 1), 0), ((0, 1, 5, 4), 1)], "glass": [((3, 0, 4, 6), 2)]}
    g = '<geometry id="room"><mesh>' + source("rp", pos, 3, "XYZ") + source("rt", [0, 0, 1, 0, 1, 1, 0, 1], 2, "ST")
    g += source("rn", [0, 1, 0, 0, 0, 1, 1, 0, 0], 3, "XYZ") + '<vertices id="rv"><input semantic="POSITION" source="#rp"/></vertices>'
    for mat, quads in tris.items():
        p = []
        for (a, b, c, d), n in quads:
            uv = {a: 0, b: 1, c: 2, d: 3}
            for t in ((a, b, c), (a, c, d)):
                for v in t:
                    p += [v, n, uv[v]]
        g += ('<triangles count="%d" material="%s"><input semantic="VERTEX" source="#rv" offset="0"/><input semantic="NORMAL" source="#rn" offset="1"/>'
              '<input semantic="TEXCOORD" source="#rt" offset="2" set="0"/><p>%s</p></triangles>' % (2 * len(quads), mat, " ".join(map(str, p))))
    g += "</mesh></geometry>"
    mats = ("brick", "glass")
    imgs = "".join('<image id="%s_img"><init_from>%s.png</init_from></image>' % (m, m) for m in mats)
    effs = "".join('<effect id="%s_fx"><profile_COMMON><newparam sid="%s_s"><surface type="2D"><init_from>%s_img</init_from></surface></newparam>'
                   '<newparam sid="%s_p"><sampler2D><source>%s_s</source></sampler2D></newparam><technique sid="common"><lambert><diffuse>'
                   '<texture texture="%s_p" texcoord="TEX0"/></diffuse></lambert></technique></profile_COMMON></effect>' % ((m,) * 6) for m in mats)
    defs = "".join('<material id="%s"><instance_effect url="#%s_fx"/></material>' % (m, m) for m in mats)
    binds = "".join('<instance_material symbol="%s" target="#%s"/>' % (m, m) for m in mats)
    write_dae(path, '<library_images>%s</library_images><library_effects>%s</library_effects><library_materials>%s</library_materials>'
              '<library_geometries>%s</library_geometries><library_visual_scenes><visual_scene id="scene"><node id="room_node" name="room_node">'
              '<instance_geometry url="#room"><bind_material><technique_common>%s</technique_common></bind_material></instance_geometry>'
              '</node></visual_scene></library_visual_scenes>' % (imgs, effs, defs, g, binds))


def write_dae(path, body):
    open(path, "w").write('<?xml version="1.0" encoding="utf-8"?><COLLADA version="1.4.1" xmlns="http://www.collada.org/2005/11/COLLADASchema">'
                          '<asset><unit meter="0.1" name="decimeter"/><up_axis>Y_UP</up_axis></asset>%s'
                          '<scene><instance_visual_scene url="#scene"/></scene></COLLADA>' % body)


def channel(aid, times, values, target):
    n = len(times)
    return ('<animation id="%s">%s%s<source id="%s_i"><Name_array id="%s_ia" count="%d">%s</Name_array><technique_common><accessor source="#%s_ia" '
            'count="%d" stride="1"><param name="INTERPOLATION" type="name"/></accessor></technique_common></source><sampler id="%s_s">'
            '<input semantic="INPUT" source="#%s_t"/><input semantic="OUTPUT" source="#%s_v"/><input semantic="INTERPOLATION" source="#%s_i"/>'
            '</sampler><channel source="#%s_s" target="%s"/></animation>'
            % (aid, source(aid + "_t", times, 1, ["TIME"]), source(aid + "_v", values, 1, ["X"]), aid, aid, n, " ".join(["LINEAR"] * n),
               aid, n, aid, aid, aid, aid, aid, target))


def door_dae(path):
    box = [c for x in (-1, 1) for y in (0, 2) for z in (-1, 1) for c in (x, y, z)]
    quads = [(4, 6, 7, 5), (1, 3, 2, 0), (2, 3, 7, 6), (0, 4, 5, 1), (1, 5, 7, 3), (4, 0, 2, 6)]
    p = [v for a, b, c, d in quads for t in ((a, b, c), (a, c, d)) for v in t]
    geo = ('<geometry id="boxg"><mesh>%s%s<vertices id="bv"><input semantic="POSITION" source="#bp"/></vertices><triangles count="12">'
           '<input semantic="VERTEX" source="#bv" offset="0"/><input semantic="TEXCOORD" source="#bt" offset="0" set="0"/><p>%s</p></triangles>'
           '</mesh></geometry>' % (source("bp", box, 3, "XYZ"), source("bt", [0, 0, 1, 0, 1, 1, 0, 1] * 2, 2, "ST"), " ".join(map(str, p))))
    anims = channel("ty", [0, 0.5, 1], [0, 10, 10], "door/location.Y") + channel("tx", [0, 0.5, 1], [0, 0, 5], "door/location.X")
    anims += channel("ry", [0, 1], [0, 90], "door/rotY.ANGLE")
    write_dae(path, '<library_animations>%s</library_animations><library_geometries>%s</library_geometries><library_visual_scenes>'
              '<visual_scene id="scene"><node id="door" name="door"><translate sid="location">0 0 0</translate><rotate sid="rotY">0 1 0 0</rotate>'
              '<instance_geometry url="#boxg"/></node></visual_scene></library_visual_scenes>' % (anims, geo))


def rooms_dae(path):
    box = [c for x in (-10, 10) for y in (0, 5) for z in (-10, 10) for c in (x, y, z)]
    quads = [(4, 6, 7, 5), (1, 3, 2, 0), (2, 3, 7, 6), (0, 4, 5, 1), (1, 5, 7, 3), (4, 0, 2, 6)]
    p = [v for a, b, c, d in quads for t in ((a, b, c), (a, c, d)) for v in t]
    write_dae(path, '<library_geometries><geometry id="rg"><mesh>%s<vertices id="rv"><input semantic="POSITION" source="#rp"/></vertices>'
              '<triangles count="12"><input semantic="VERTEX" source="#rv" offset="0"/><p>%s</p></triangles></mesh></geometry>'
              '</library_geometries><library_visual_scenes><visual_scene id="scene"><node id="room0" name="room0">'
              '<instance_geometry url="#rg"/></node></visual_scene></library_visual_scenes>' % (source("rp", box, 3, "XYZ"), " ".join(map(str, p))))


def whole_level(mono, inp, out, work):
    """-create:level over the created instances (as its shared classes) and -import:nosep; the .dat."""
    lvl = os.path.join(work, "level")
    classes = os.path.join(lvl, "classes")
    os.makedirs(classes, exist_ok=True)
    for f in glob.glob(os.path.join(out, "*.oni")):
        if not os.path.basename(f).startswith("AKEV"):
            open(os.path.join(classes, os.path.basename(f)), "wb").write(open(f, "rb").read())
    for f in ("room.dae", "brick.png", "glass.png"):
        open(os.path.join(lvl, f), "wb").write(open(os.path.join(inp, f), "rb").read())
    rooms_dae(os.path.join(lvl, "rooms.dae"))
    open(os.path.join(lvl, "level1.xml"), "w").write(
        '<?xml version="1.0" encoding="utf-8"?><Oni><Level Name="level1"><Environment><Model><Import Path="room.dae"/></Model>'
        '<Rooms><Import Path="rooms.dae"/></Rooms></Environment><Sky>ONSKnight</Sky><Objects><Import>physics.xml</Import></Objects>'
        '</Level></Oni>')
    open(os.path.join(lvl, "physics.xml"), "w").write(
        '<?xml version="1.0" encoding="utf-8"?><Oni><Physics><Object><Name>door1</Name><Position>3 0 2</Position>'
        '<Rotation>0 90 0</Rotation><Geometry>box</Geometry><Animation>door_anim</Animation></Object></Physics></Oni>')
    made = os.path.join(lvl, "made")
    mono("-create:level", made, os.path.join(lvl, "level1.xml"))
    dat = os.path.join(work, "whole", "level1_Final.dat")
    os.makedirs(os.path.dirname(dat), exist_ok=True)
    mono("-import:nosep", made, dat)
    return dat


def run(cmd, **kw):
    print("$", " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def glb_json(path):
    b = open(path, "rb").read()
    n = struct.unpack("<I", b[12:16])[0]
    return json.loads(b[20:20 + n]), b[28 + n:]


def accessor(j, binary, i):
    a = j["accessors"][i]
    bv = j["bufferViews"][a["bufferView"]]
    n = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
    off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
    return [struct.unpack_from("<%df" % n, binary, off + 4 * n * k) for k in range(a["count"])]


def check_oban(path):
    """The OBAN's keys against the COLLADA animation (60 keys a second)."""
    j, binary = glb_json(path)
    problems = []
    for ch in j["animations"][0]["channels"]:
        s = j["animations"][0]["samplers"][ch["sampler"]]
        times, values = accessor(j, binary, s["input"]), accessor(j, binary, s["output"])
        for (t,), v in zip(times, values):
            if ch["target"]["path"] == "translation":
                want = (5 * max(0.0, t - 0.5) / 0.5, 10 * min(t, 0.5) / 0.5, 0)
            else:
                a = math.radians(90 * t) / 2
                want = (0, math.sin(a), 0, math.cos(a))
            if max(abs(x - y) for x, y in zip(v, want)) > 1e-3:
                problems.append("%s at %.3f s: %s, want %s" % (ch["target"]["path"], t, v, want))
    return problems


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    assay, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="onisplit-check-")
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "OniSplit.exe")
    files = [f for f in glob.glob(os.path.join(src, "**", "*.cs"), recursive=True) if "/OniAgqg" not in f and "/OniOnlv" not in f]
    run(["mcs", "-out:" + exe, "-unsafe", "-nowarn:0169,0414,0649,0168,0219,0162,0618,0108,0114", "-r:System.Xml", "-r:System.Core",
         "-r:System.Drawing", "-r:System.Xml.Linq"] + files, stdout=subprocess.DEVNULL)
    inp, out = os.path.join(work, "src"), os.path.join(work, "oni")
    os.makedirs(inp, exist_ok=True)
    png(os.path.join(inp, "brick.png"), 64, 64, lambda x, y: ((x * 4) & 255, (y * 4) & 255, 128, 255))
    png(os.path.join(inp, "glass.png"), 32, 32, lambda x, y: (0, 128, 255, 128 if (x + y) % 2 else 255))
    box_obj(os.path.join(inp, "box.obj"))
    room_dae(os.path.join(inp, "room.dae"))
    door_dae(os.path.join(inp, "OBANdoor_anim.dae"))
    mono = lambda *a: run(["mono", exe] + list(a), stdout=subprocess.DEVNULL)
    mono("-create:m3gm", out, os.path.join(inp, "box.obj"))
    for t in ("brick", "glass"):
        mono("-create:txmp", out, os.path.join(inp, t + ".png"))
    mono("-create:akev", out, os.path.join(inp, "room.dae"))
    mono("-create:oban", out, os.path.join(inp, "OBANdoor_anim.dae"))
    problems = []
    whole = whole_level(mono, inp, out, work)
    for layout in ("nosep", "sep", "whole"):
        level = whole if layout == "whole" else os.path.join(work, layout, "level0_Final.dat")
        if layout != "whole":
            os.makedirs(os.path.dirname(level), exist_ok=True)
            mono("-import:" + layout, out, level)
        if subprocess.run([assay, "verify", level]).returncode != 0:  # the whole level's sky (ONSK) is a placeholder: a warning
            problems.append("verify failed: " + level)
        dest = os.path.join(work, "x_" + layout)
        run([assay, "extract", level, "--models", "--textures", "-o", dest, "--force"])
        glbs = sorted(glob.glob(os.path.join(dest, "*.glb")))
        if len(glbs) < 2:
            problems.append("%s: %d GLBs" % (layout, len(glbs)))
        report = subprocess.run(["node", os.path.join(ROOT, "tests", "node", "validate.js")] + glbs, capture_output=True, text=True, check=True)
        for line in report.stdout.splitlines():
            r = json.loads(line)
            if r["errors"] or r["warnings"]:
                problems.append("validator: %s" % line)
    j, _ = glb_json(os.path.join(work, "x_whole", "OBANdoor_anim.glb"))
    if j.get("extras", {}).get("geometry_from") != "OBOA" or not j.get("meshes"):
        problems.append("the whole level's OBAN has no OBOA geometry: %s" % j.get("extras"))
    oban = os.path.join(work, "x_oban")
    run([assay, "extract", os.path.join(out, "OBANdoor_anim.oni"), "--models", "-o", oban, "--force"])
    problems += check_oban(os.path.join(oban, "OBANdoor_anim.glb"))
    print("\n".join(problems) if problems else "onisplit-check: every export verified, validated and matched")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
