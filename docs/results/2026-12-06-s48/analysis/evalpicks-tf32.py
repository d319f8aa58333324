"""TF32 picks before and after a model change, on the shapes of the tuned-on-request lines.

    python3 ../../2026-12-06-s47/analysis/tunedlines.py LOGS… > tuned.json   # every tuned line
    tc_plans --sizes <the lines' TF32 shapes> --precisions tf32 > OLD.csv   (at the old commit; NEW.csv at the new)
    python3 evalpicks-tf32.py tuned.json OLD.csv NEW.csv

Prints how many picks moved, the measured speedup of the new pick over the old where both were timed
in the same line (H200 runs: "train", the others: "held"), and the median |log error| of the
128×128 ÷ 128×256 time ratio against the priced one.
"""
import csv,json,collections,sys,math,statistics
H200=('pingpong-pairs','2026-12-05-s42','h200-97856fe')
rows=json.load(open(sys.argv[1]))
meas=collections.defaultdict(lambda: collections.defaultdict(list))
for x in rows:
    if x['prec']!='tf32': continue
    dev='train' if any(h in x['f'] for h in H200) else 'held'
    meas[(x['m'],x['n'],x['k'])][(dev,x['kernel'],x['f'])]=x['meas']
def picks(f):
    out={}; pred={}
    for r in csv.DictReader(open(f)):
        key=(int(r['m']),int(r['n']),int(r['k']))
        pred[(key,r['kernel'])]=float(r['predicted_us'])
        if r['auto'] in ('1','true'): out[key]=r['kernel']
    return out,pred
base,bpred=picks(sys.argv[2])
for b in sys.argv[3:]:
    new,npred=picks(b)
    gains=collections.defaultdict(list); changed=0
    for key in base:
        if base.get(key)==new.get(key): continue
        changed+=1
        m=meas.get(key,{})
        for (dev,k,f),t in m.items():
            if k==base[key]:
                t2=m.get((dev,new[key],f))
                if t2: gains[dev].append(t/t2)
    # model error on pairs 128x128 vs 128x256 by set
    err=collections.defaultdict(list)
    for key,m in meas.items():
        for (dev,k,f),t in m.items():
            if k=='persistent-tf32-128x128':
                t2=m.get((dev,'persistent-tf32-128x256',f))
                p1,p2=npred.get((key,k)),npred.get((key,'persistent-tf32-128x256'))
                if t2 and p1 and p2 and p1<1e9 and p2<1e9: err[dev].append(abs(math.log((t/t2)/(p1/p2))))
    s=f"b={b}: {changed} picks moved;"
    for d in ('train','held'):
        v=gains[d]
        if v: s+=f" {d}: {len(v)} measured both, geo {math.exp(sum(map(math.log,v))/len(v)):.3f} min {min(v):.2f};"
        if err[d]: s+=f" pair |log err| median {statistics.median(err[d]):.3f};"
    print(s)
