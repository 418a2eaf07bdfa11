"""Causal flash attention with NaN/+inf in a float mask: which output rows are NaN, for 60 random
(L, S, dtype, heads) per seed. Run on both interpreters and diff: .venv/bin/python
scripts/sdpa_nan_mask_sweep.py 3 > a; .venv-upstream/bin/python scripts/sdpa_nan_mask_sweep.py 3 > b; diff a b
(Note [Flash attention's NaN] in kernels/attention.c)."""
import torch, random
import sys; random.seed(int(sys.argv[1]))
res=[]
for t in range(60):
    L=random.choice([1,3,31,33,40,70,200,250]); S=random.choice([1,5,40,100,513,600,700])
    torch.manual_seed(t); m=torch.zeros(1,1,L,S)
    for _ in range(3):
        m[0,0,random.randrange(L),random.randrange(S)]=random.choice([float('nan'), float('inf')])
    dt=random.choice([torch.float32, torch.bfloat16, torch.float64]); H=random.choice([1,2]); q=torch.randn(1,H,L,4).to(dt); k=torch.randn(1,H,S,4).to(dt); v=torch.randn(1,H,S,4).to(dt); m=m.to(dt)
    o=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q,k,v,is_causal=True,attn_mask=m)[0]
    res.append((L,S,str(dt),H,[(int(x[2]),int(x[3]),float(m[tuple(x)])) for x in (m!=0).nonzero().tolist()],tuple(torch.isnan(o[0,-1,:,0]).nonzero().flatten().tolist())))
for r in res: print(r)
