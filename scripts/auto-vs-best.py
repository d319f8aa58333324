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
        print(p,len(ratios),'geomean vs cuBLAS %.3f (old auto %.3f), vs best %.3f, min vs best %.2f, below0.7 %d'%(g(ratios),g(old),g(vsbest),min(vsbest),sum(r<0.7 for r in ratios)))
