import csv,json,collections,sys,math
def picks(f):
    return {(int(r['m']),int(r['n']),int(r['k']),r['precision']):(r['kernel'],int(r['splits']),float(r['predicted_us'])) for r in csv.DictReader(open(f))}
p0=picks(sys.argv[1]); pA=picks(sys.argv[2])
meas=collections.defaultdict(dict)
for f,dev in [('tuned-h200.json','h200'),('tuned-h100-s47.json','h100')]:
    for x in json.load(open(f)):
        meas[(x['m'],x['n'],x['k'],x['prec'])][(dev,x['kernel'])]=x['meas']
for f in ['res/d/squares-by-name/scorecard.json','res/e/squares-report-by-name/scorecard.json']:
    for r in json.load(open(f))['rows']:
        if r['ms']: meas[(r['m'],r['n'],r['k'],r['precision'])][('h100sq',r['key'])]=r['ms']*1000
n=0; gains=collections.defaultdict(list)
for key in sorted(p0):
    if p0[key][:2]!=pA[key][:2]:
        n+=1
        mm=meas.get(key,{})
        line=f"{key} {p0[key][0]}/{p0[key][1]} -> {pA[key][0]}/{pA[key][1]}"
        for dev in ('h200','h100','h100sq'):
            o=mm.get((dev,p0[key][0])); nw=mm.get((dev,pA[key][0]))
            # the new pick measured at its old split count only counts where that split count is the new one
            if o and nw:
                line+=f" | {dev} {o:.1f} -> {nw:.1f} ({o/nw:.2f})"; gains[dev].append(o/nw)
            elif o or nw: line+=f" | {dev} old {o} new {nw}"
        print(line)
print(n,'changed')
for d,v in gains.items(): print(d, len(v), 'geo speedup', round(math.exp(sum(map(math.log,v))/len(v)),3), 'min', round(min(v),2))
