import json,sys,math,lzma
from collections import defaultdict
def load(f):
  op = lzma.open if f.endswith('.xz') else open
  t=defaultdict(dict)
  for r in json.load(op(f,'rt'))["rows"]:
    if r['ms'] is None: continue
    t[(r['size'],r['precision'])][r['key']]=(r['ms']*1000, r['check'])
  return t
new=load(sys.argv[1]); old=load(sys.argv[2])
ratios=defaultdict(list)
for key in new:
  n=new[key]; o=old.get(key,{})
  cb=n.get('cublas-'+key[1],(float('nan'),''))[0]
  line=f"{key[0]:>14} {key[1]:5} cuBLAS {cb:6.1f} |"
  for k in sorted(n):
    if 'cublas' in k: continue
    ov=o.get(k,(float('nan'),''))[0]; nv=n[k][0]
    line+=f" {k} {ov:6.1f}->{nv:6.1f} ({ov/nv:4.2f}x{'' if n[k][1]=='ok' else ' '+n[k][1]})"
    if ov==ov: ratios[(k,key[1])].append(ov/nv)
  print(line)
for k,v in sorted(ratios.items()):
  print(k, len(v), "geo old/new %.3f min %.3f max %.3f"%(math.exp(sum(map(math.log,v))/len(v)),min(v),max(v)))
