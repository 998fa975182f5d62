#!/usr/bin/env python3
"""bench/compile_share.py PLUGIN.so DIR... -- the plugin's share of a -O2 compile of
the programs in tests/programs/DIR (those without FLAGS/EXPECT-ERROR/SKIP):
each compiled without and with PLUGIN alternately, CPU seconds; prints the
totals, their ratio, the geometric mean of per-program ratios and the 15
programs the plugin costs most. Run from the repository root."""
import os, resource, subprocess, sys, glob
P=sys.argv[1]; dirs=sys.argv[2:]
def cpu():
    r=resource.getrusage(resource.RUSAGE_CHILDREN); return r.ru_utime+r.ru_stime
rows=[]
for d in dirs:
  for f in sorted(glob.glob(f"tests/programs/{d}/*.c")+glob.glob(f"tests/programs/{d}/*.cpp")):
    head=open(f,errors="replace").read(2000)
    if any(x in head for x in ("FLAGS:","EXPECT-ERROR","SKIP:")): continue
    cc="clang++-16" if f.endswith(".cpp") else "clang-16"
    base=[cc,"-O2","-c",f,"-o",os.devnull,"-I",os.path.dirname(f),"-Itests/programs","-Iinclude"]
    t=[]
    for extra in ([],["-fpass-plugin="+P]):
        a=cpu(); ok=subprocess.run(base+extra,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL).returncode==0; t.append(cpu()-a)
    if ok: rows.append((t[1]-t[0],t[0],t[1],f))
import math
print("n",len(rows),"sum wo %.2f w %.2f ratio %.2f geomean %.2f"%(sum(r[1] for r in rows),sum(r[2] for r in rows),sum(r[2] for r in rows)/sum(r[1] for r in rows), math.exp(sum(math.log(r[2]/r[1]) for r in rows)/len(rows))))
for r in sorted(rows,reverse=True)[:15]: print("%.3f %.3f %.3f %s"%r)
