"""Prints fp8-batched-grouped-summary.txt from c/ and b/ (run in this folder)."""
import json
print("FP8 E4M3 (H200), per-tensor scales, f32 out unless named; torch _scaled_mm (bf16 out) beside:")
tor={(r['m'],r['n'],r['k']):r for r in map(json.loads,open('c/fp8-torch.jsonl'))}
for r in map(json.loads,open('c/fp8.jsonl')):
    s=(r['m'],r['n'],r['k']); t=tor.get(s,{})
    print(' %dx%dx%d: Auto %.0f TFLOP/s, cuBLASLt %.0f -> %.3f; bf16 out %.3f; fast %.3f; blocks/Auto %.3f; torch _scaled_mm %.0f (Auto bf16 / torch %.3f)'%(*s,r['tessera_auto_tflops'],r['cublaslt_tflops'],r['tessera_auto_over_cublaslt'],r['tessera_auto_bf16_over_cublaslt_bf16'],r['tessera_fast_over_cublaslt_fast'],r['tessera_blocks_over_tessera_auto'],t.get('scaled_mm_tflops',0),t.get('scaled_mm_us',0)/r['tessera_auto_bf16_us'] if t else 0))
for p in ['bf16','f32']:
    d='b' if p=='bf16' else 'c'
    tor={}
    for r in map(json.loads,open(f'{d}/grouped-torch-{p}.jsonl')):
        tor[(r['kind'],r.get('count') or r.get('groups'),r['m'],r['n'],r['k'])]=r
    print(f"\n{p} batched/grouped: Auto ÷ cuBLAS (cudarc) and ÷ torch")
    for r in map(json.loads,open(f'{d}/grouped-{p}.jsonl')):
        if r['kind']!='batched': continue
        key=(r['kind'],r.get('count'),r['m'],r['n'],r['k'])
        t=r['times']; a=t['tessera_auto']['ms']; cb=t.get('cublas',{}).get('ms')
        tms=tor.get(key,{}).get('bmm_ms')
        print(' ',key,'auto %.1f us'%(a*1e3),'cublas %.1f'%(cb*1e3) if cb else '','torch %.1f'%(tms*1e3) if tms else '', 'auto/torch %.3f'%(tms/a) if tms else '', 'best', r.get('best_tile'))
tor=[r for r in map(json.loads,open('b/grouped-torch-bf16.jsonl')) if r['kind']=='grouped']
ours=[r for r in map(json.loads,open('b/grouped-bf16.jsonl')) if r['kind']=='grouped']
print("\nbf16 grouped (MoE, tokens 16384): Auto ÷ torch grouped_mm / ÷ a loop of torch mm")
for t,o in zip(tor,ours):
    a=o['times']['tessera_auto']['ms']
    print('  groups %d N %d K %d: Auto %.0f us, grouped_mm %.0f (%.3f), mm loop %.0f (%.3f)'%(t['groups'],t['n'],t['k'],a*1e3,t['grouped_mm_ms']*1e3,t['grouped_mm_ms']/a,t['mm_loop_ms']*1e3,t['mm_loop_ms']/a))
