import re,sys,lzma,json
pat=re.compile(r"tuned (\w+) ([0-9×³]+): \S+ \(first call [0-9.]+ ms; expected/measured µs: (.*)\)")
out=[]
for f in sys.argv[1:]:
    op=lzma.open if f.endswith('.xz') else open
    for line in op(f,'rt'):
        m=pat.search(line)
        if not m: continue
        prec,size,rest=m.groups()
        if '³' in size: d=int(size[:-1]); mnk=(d,d,d)
        else: mnk=tuple(int(x) for x in size.split('×'))
        for k,e,t in re.findall(r"([\w.-]+) ([0-9.]+|inf)/([0-9.]+)", rest):
            out.append(dict(f=f,prec=prec,m=mnk[0],n=mnk[1],k=mnk[2],kernel=k,exp=float(e),meas=float(t)))
json.dump(out,sys.stdout)
