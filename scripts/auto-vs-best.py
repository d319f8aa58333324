#!/usr/bin/env python3
"""`Auto` against cuBLAS and against the best tessera kernel, shape by shape, on scorecard runs.

    python3 scripts/auto-vs-best.py RUN.json[.xz][,RUN.json…] PLANS.csv

RUN: scorecard.json of runs with every kernel of the precisions (no `--sweep`); PLANS: what
`cargo run -p tessera-catalogue --example tc_plans -- --sizes …` prints at the commit to judge (its
`auto` column is the model's pick). Times the picked kernel as measured in the run (a split-K kernel at
the slices that run launched). Prints the shapes where the pick is below 0.9 of the best kernel or
0.7 of cuBLAS, then per precision the geometric means against cuBLAS (the pick's, and the run's own
`Auto`) and against the best kernel, the lowest, and how many shapes fall below 0.7 of cuBLAS.
"""
import json, csv, lzma, sys, math
runs=sys.argv[1].split(','); plans=sys.argv[2]
meas={}
for run in runs:
    for r in json.load(lzma.open(run, 'rt') if run.endswith('.xz') else open(run))['rows']:
        meas.setdefault((r['m'],r['n'],r['k'],r['precision']),{})[r['key']]=r['ms']*1e3
pick={}
for r in csv.DictReader(open(plans)):
    if r['auto']=='1': pick[(int(r['m']),int(r['n']),int(r['k']),r['precision'])]=r['kernel']
for p in ['bf16','fp16','tf32']:
    ratios=[];vsbest=[];old=[]
    for key,v in sorted(meas.items()):
        if key[3]!=p or key not in pick: continue
        k=pick[key]; cb=v.get('cublas-'+p)
        if k not in v: continue
        best=min(u for kk,u in v.items() if not kk.startswith(('cublas','auto')))
        ratios.append(cb/v[k]); vsbest.append(best/v[k]); old.append(cb/v['auto-'+p])
        if best/v[k]<0.9 or cb/v[k]<0.7: print(p,key[:3],'pick',k,'%.1f'%v[k],'best %.1f'%best,'cb %.1f'%cb)
    if ratios:
        g=lambda x: math.exp(sum(map(math.log,x))/len(x))
        print(p,len(ratios),'geomean vs cuBLAS %.3f (the run\'s Auto %.3f), vs best %.3f, min vs best %.2f, below0.7 %d'%(g(ratios),g(old),g(vsbest),min(vsbest),sum(r<0.7 for r in ratios)))
