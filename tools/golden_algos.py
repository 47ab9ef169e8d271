#!/usr/bin/env python3
"""Golden vectors for gauntlet-algos, re-derived from verl's definitions with numpy.

Each function below restates one formula the way verl writes it
(`verl/trainer/ppo/core_algos.py`, `verl/utils/torch_functional.py`) or verl-agent writes it
(`gigpo/core_gigpo.py`): padded `[batch, T]` arrays, `id2score` dictionaries, right-to-left
loops. It is an independent re-derivation (numpy, float64), not gauntlet's algorithm translated
back, so the Rust tests compare two implementations of the same published formulas.

Two documented differences from verl's raw outputs are applied here too, because gauntlet makes
them on purpose: every advantage and return is multiplied by the mask (verl's GAE leaves whitened
values on masked tokens, which never reach a loss), and rows are ragged (padding is trimmed).

Run:  python3 tools/golden_algos.py   (writes crates/gauntlet-algos/tests/fixtures/*.json)
Needs: numpy.
"""

import json
import math
import os
from collections import defaultdict

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "crates", "gauntlet-algos", "tests", "fixtures")

# --------------------------------------------------------------------------------------------
# verl_F helpers
# --------------------------------------------------------------------------------------------


def masked_mean(x, m):
    return (x * m).sum() / m.sum()


def masked_whiten(x, m):
    mean = masked_mean(x, m)
    var = masked_mean((x - mean) ** 2, m)
    n = m.sum()
    assert n > 1
    var = var * n / (n - 1)
    return (x - mean) / np.sqrt(var + 1e-8)


def torch_std(xs):
    xs = np.asarray(xs, dtype=np.float64)
    return float(np.std(xs, ddof=1))


def pad(rows, width, fill=0.0):
    out = np.full((len(rows), width), fill, dtype=np.float64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def unpad(mat, lengths):
    return [[float(v) for v in mat[i, :n]] for i, n in enumerate(lengths)]


# --------------------------------------------------------------------------------------------
# Advantage estimators (verl core_algos.py)
# --------------------------------------------------------------------------------------------


def grpo(scores, index, eps=1e-6, norm_by_std=True):
    id2score = defaultdict(list)
    for i, s in enumerate(scores):
        id2score[index[i]].append(s)
    id2mean, id2std = {}, {}
    for idx, v in id2score.items():
        if len(v) == 1:
            id2mean[idx], id2std[idx] = 0.0, 1.0
        else:
            id2mean[idx], id2std[idx] = float(np.mean(v)), torch_std(v)
    out = []
    for i, s in enumerate(scores):
        if norm_by_std:
            out.append((s - id2mean[index[i]]) / (id2std[index[i]] + eps))
        else:
            out.append(s - id2mean[index[i]])
    return np.array(out)


def rloo(scores, index):
    id2score = defaultdict(list)
    for i, s in enumerate(scores):
        id2score[index[i]].append(s)
    id2mean = {k: (0.0 if len(v) == 1 else float(np.mean(v))) for k, v in id2score.items()}
    out = []
    for i, s in enumerate(scores):
        n = len(id2score[index[i]])
        out.append(s * n / (n - 1) - id2mean[index[i]] * n / (n - 1) if n > 1 else s)
    return np.array(out)


def opo(scores, lengths, index):
    id2score, id2len = defaultdict(list), defaultdict(list)
    for i, s in enumerate(scores):
        id2score[index[i]].append(s)
        id2len[index[i]].append(lengths[i])
    bsl = {}
    for k in id2score:
        if len(id2score[k]) == 1:
            bsl[k] = 0.0
        else:
            s, lens = np.array(id2score[k]), np.array(id2len[k])
            bsl[k] = float((lens * s).sum() / lens.sum())
    return np.array([s - bsl[index[i]] for i, s in enumerate(scores)])


def gpg(scores, index):
    scores = np.asarray(scores, dtype=np.float64)
    alpha = len(scores) / max(np.count_nonzero(scores), 1)
    id2score = defaultdict(list)
    for i, s in enumerate(scores):
        id2score[index[i]].append(s)
    id2mean = {k: (0.0 if len(v) == 1 else float(np.mean(v))) for k, v in id2score.items()}
    return np.array([alpha * (s - id2mean[index[i]]) for i, s in enumerate(scores)])


def reinforce_pp_baseline(scores, index, mask):
    id2score = defaultdict(list)
    for i, s in enumerate(scores):
        id2score[index[i]].append(s)
    id2mean = {k: (0.0 if len(v) == 1 else float(np.mean(v))) for k, v in id2score.items()}
    centred = np.array([s - id2mean[index[i]] for i, s in enumerate(scores)])
    tiled = centred[:, None] * np.ones_like(mask) * mask
    return masked_whiten(tiled, mask) * mask


def reinforce_pp(rewards, mask, gamma):
    returns = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[0])
    for t in reversed(range(rewards.shape[1])):
        running = rewards[:, t] + gamma * running
        returns[:, t] = running
        running = running * mask[:, t]
    adv = masked_whiten(returns, mask) * mask
    return adv, returns * mask


def remax(rewards, baselines, mask):
    returns = np.flip(np.cumsum(np.flip(rewards * mask, -1), -1), -1)
    adv = returns - np.asarray(baselines)[:, None] * mask
    return adv * mask, returns * mask


def gae(rewards, values, mask, gamma, lam):
    next_values = np.zeros(rewards.shape[0])
    last = np.zeros(rewards.shape[0])
    rev = []
    for t in reversed(range(rewards.shape[1])):
        delta = rewards[:, t] + gamma * next_values - values[:, t]
        cand = delta + gamma * lam * last
        next_values = values[:, t] * mask[:, t] + (1 - mask[:, t]) * next_values
        last = cand * mask[:, t] + (1 - mask[:, t]) * last
        rev.append(last)
    adv = np.stack(rev[::-1], axis=1)
    returns = adv + values
    return masked_whiten(adv, mask) * mask, returns * mask


# verl-agent gigpo/core_gigpo.py


def gigpo(scores, index, traj, turn, anchor, step_rewards, mask, eps, step_w, mode, gamma):
    remove_std = mode == "mean_norm"
    # episode_norm_reward, compute_mean_std_cross_steps=True: every turn row counts.
    ep = grpo(scores, index, eps, norm_by_std=not remove_std)
    # compute_step_discounted_returns: rows of one trajectory in step order.
    returns = np.zeros(len(scores))
    by_traj = defaultdict(list)
    for i in range(len(scores)):
        by_traj[(index[i], traj[i])].append(i)
    for rows in by_traj.values():
        rows = sorted(rows, key=lambda i: turn[i])
        running = 0.0
        for i in reversed(rows):
            running = step_rewards[i] + gamma * running
            returns[i] = running
    # build_step_group (exact anchors within each episode group) + step_norm_reward.
    id2score = defaultdict(list)
    keys = [(index[i], anchor[i]) for i in range(len(scores))]
    for i, k in enumerate(keys):
        id2score[k].append(returns[i])
    id2mean, id2std = {}, {}
    for k, v in id2score.items():
        id2mean[k] = float(np.mean(v))
        id2std[k] = 1.0 if len(v) == 1 else torch_std(v)
    st = []
    for i, k in enumerate(keys):
        if remove_std:
            st.append(returns[i] - id2mean[k])
        else:
            st.append((returns[i] - id2mean[k]) / (id2std[k] + eps))
    return (ep + step_w * np.array(st))[:, None] * mask


# --------------------------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------------------------


def outcome_rewards(scores, masks):
    out = []
    for s, m in zip(scores, masks, strict=True):
        r = [0.0] * len(m)
        last = max([t for t, x in enumerate(m) if x > 0], default=None)
        if last is not None:
            r[last] = s
        out.append(r)
    return out


def random_batch(rng, n_groups, max_group, min_len=2, max_len=9, multi_turn=True, binary=True):
    rows = []
    for g in range(n_groups):
        size = int(rng.integers(1, max_group + 1))
        for _ in range(size):
            n = int(rng.integers(min_len, max_len + 1))
            mask = [1] * n
            if multi_turn and n >= 5 and rng.random() < 0.6:
                a = int(rng.integers(1, n - 2))
                b = int(rng.integers(a + 1, n - 1))
                for t in range(a, b):
                    mask[t] = 0  # environment tokens in the middle of the row
            if rng.random() < 0.3:
                mask[-1] = 0  # trailing padding
            score = float(rng.integers(0, 2)) if binary else round(float(rng.normal()), 6)
            rows.append({"group": f"g{g}", "score": score, "mask": mask})
    return rows


def run_estimator(name, rows, cfg):
    index = [r["group"] for r in rows]
    scores = [r["score"] for r in rows]
    masks = [r["mask"] for r in rows]
    lengths = [len(m) for m in masks]
    width = max(lengths)
    m = pad(masks, width)
    eps = cfg.get("epsilon", 1e-6)
    gamma = cfg.get("gamma", 1.0)
    returns = None
    if name in ("grpo", "dr-grpo", "rloo", "opo", "gpg"):
        if name == "grpo":
            a = grpo(scores, index, eps, cfg.get("norm_by_std", True))
        elif name == "dr-grpo":
            a = grpo(scores, index, eps, False)
        elif name == "rloo":
            a = rloo(scores, index)
        elif name == "opo":
            a = opo(scores, [r.get("length", sum(r["mask"])) for r in rows], index)
        else:
            a = gpg(scores, index)
        adv = a[:, None] * m
    elif name == "reinforce-pp-baseline":
        adv = reinforce_pp_baseline(scores, index, m)
    elif name in ("reinforce-pp", "remax", "gae"):
        rw = [r["rewards"] for r in rows] if "rewards" in rows[0] else outcome_rewards(scores, masks)
        rw = pad(rw, width)
        if name == "reinforce-pp":
            adv, returns = reinforce_pp(rw, m, gamma)
        elif name == "remax":
            adv, returns = remax(rw, [r["baseline"] for r in rows], m)
        else:
            adv, returns = gae(rw, pad([r["values"] for r in rows], width), m, gamma, cfg.get("lambda", 1.0))
    elif name == "gigpo":
        g = cfg["gigpo"]
        adv = gigpo(
            scores,
            index,
            [r["trajectory"] for r in rows],
            [r["turn"] for r in rows],
            [r["anchor"] for r in rows],
            [r["step_reward"] for r in rows],
            m,
            eps,
            g["step_weight"],
            g["mode"],
            g["gamma"],
        )
    else:
        raise ValueError(name)
    return {
        "advantages": unpad(adv, lengths),
        "returns": None if returns is None else unpad(returns, lengths),
    }


def advantage_cases():
    rng = np.random.default_rng(20250601)
    cases = []

    def add(name, est, rows, cfg=None, flags=None):
        cfg = cfg or {}
        case = {"name": name, "estimator": est, "config": cfg, "flags": flags or [], "rows": rows}
        case.update(run_estimator(est, rows, cfg))
        cases.append(case)

    worked = [{"group": "p", "score": s, "mask": [1, 1, 1]} for s in [1.0, 0.0, 0.0, 0.0]]
    for est in ("grpo", "dr-grpo", "rloo"):
        add(f"worked-example-{est}", est, worked)

    edge = [
        {"group": "solo", "score": 0.7, "mask": [1, 1]},
        {"group": "same", "score": 1.0, "mask": [1, 1, 1]},
        {"group": "same", "score": 1.0, "mask": [1, 0, 1]},
        {"group": "same", "score": 1.0, "mask": [1]},
        {"group": "mixed", "score": 0.0, "mask": [1, 1, 0, 1]},
        {"group": "mixed", "score": 1.0, "mask": [1, 1]},
        {"group": "mixed", "score": 0.5, "mask": [0, 1, 1]},
    ]
    for est in ("grpo", "dr-grpo", "rloo", "opo", "gpg", "reinforce-pp-baseline"):
        add(f"singleton-and-all-equal-{est}", est, edge)

    for k in range(3):
        rows = random_batch(rng, n_groups=6, max_group=5, binary=(k != 2))
        for est in ("grpo", "dr-grpo", "rloo", "opo", "gpg", "reinforce-pp-baseline"):
            add(f"random-{k}-{est}", est, rows)
        add(f"random-{k}-grpo-eps", "grpo", rows, {"epsilon": 1e-4}, ["--eps", "1e-4"])
        add(f"random-{k}-grpo-no-std", "grpo", rows, {"norm_by_std": False}, ["--no-std"])
        # Token-level rewards and a critic, multi-turn masks.
        tok = []
        for r in rows:
            r2 = dict(r)
            n = len(r["mask"])
            r2["rewards"] = [round(float(x), 6) if rng.random() < 0.3 else 0.0 for x in rng.normal(size=n)]
            r2["values"] = [round(float(x), 6) for x in rng.normal(size=n)]
            r2["baseline"] = round(float(rng.random()), 6)
            tok.append(r2)
        for gamma, lam in ((1.0, 1.0), (0.99, 0.95)):
            add(
                f"random-{k}-gae-{gamma}-{lam}",
                "gae",
                tok,
                {"gamma": gamma, "lambda": lam},
                ["--gamma", str(gamma), "--lambda", str(lam)],
            )
        add(f"random-{k}-reinforce-pp", "reinforce-pp", tok, {"gamma": 0.99}, ["--gamma", "0.99"])
        add(f"random-{k}-reinforce-pp-outcome", "reinforce-pp", rows, {"gamma": 1.0})
        add(f"random-{k}-remax", "remax", tok)

    # GAE on a hand-made multi-turn row: environment tokens in the middle carry value and advantage.
    mt = [
        {
            "group": "a",
            "score": 1.0,
            "mask": [1, 1, 0, 0, 1, 1],
            "rewards": [0, 0.5, 9, 9, 0, 1],
            "values": [0.1, 0.2, 7, 7, 0.3, 0.4],
        },
        {"group": "a", "score": 0.0, "mask": [1, 1, 1, 0], "rewards": [0, 0, 0, 0], "values": [0.5, 0.4, 0.3, 5]},
    ]
    add("multi-turn-gae", "gae", mt, {"gamma": 0.9, "lambda": 0.8}, ["--gamma", "0.9", "--lambda", "0.8"])

    # GiGPO: episode groups of trajectories, turn rows shuffled, recurring anchors.
    for k in range(3):
        rows = []
        for g in range(4):
            n_traj = int(rng.integers(1, 5))
            for tr in range(n_traj):
                n_turns = int(rng.integers(1, 5))
                outcome = float(rng.integers(0, 2))
                for t in range(n_turns):
                    n = int(rng.integers(1, 6))
                    mask = [1] * n
                    if n > 2 and rng.random() < 0.3:
                        mask[1] = 0
                    rows.append(
                        {
                            "group": f"e{g}",
                            "trajectory": f"e{g}-t{tr}",
                            "turn": t,
                            "anchor": f"s{int(rng.integers(0, 3))}",
                            "score": outcome,
                            "step_reward": round(float(rng.choice([0.0, 0.0, 1.0, -0.1])), 6),
                            "mask": mask,
                        }
                    )
        perm = rng.permutation(len(rows))
        rows = [rows[i] for i in perm]
        for mode, w in (("mean_norm", 1.0), ("mean_std_norm", 0.5)):
            cfg = {"gigpo": {"mode": mode, "step_weight": w, "gamma": 0.95}}
            flags = ["--mode", mode.replace("_", "-"), "--step-weight", str(w)]
            add(f"gigpo-{k}-{mode}", "gigpo", rows, cfg, flags)
    return cases


# --------------------------------------------------------------------------------------------
# Losses (verl core_algos.py policy losses, agg_loss, kl_penalty, value loss)
# --------------------------------------------------------------------------------------------


def agg_loss(loss_mat, mask, mode, norm):
    if mode == "token-mean":
        return (loss_mat * mask).sum() / norm["tokens"]
    if mode == "seq-mean-token-sum":
        return (loss_mat * mask).sum() / norm["sequences"]
    if mode == "seq-mean-token-mean":
        per = (loss_mat * mask).sum(-1) / np.maximum(mask.sum(-1), 1)
        return per.sum() / norm["sequences"]
    if mode == "seq-mean-token-sum-norm":
        return (loss_mat * mask).sum() / norm["max_len"]
    raise ValueError(mode)


def full_norm(mask):
    return {"tokens": max(mask.sum(), 1.0), "sequences": max(mask.shape[0], 1), "max_len": mask.shape[1]}


def ppo_vanilla(lp, old, adv, cfg):
    nkl = np.clip(lp - old, -20.0, 20.0)
    ratio = np.exp(nkl)
    l1 = -adv * ratio
    l2 = -adv * np.clip(ratio, 1 - cfg["clip_low"], 1 + cfg["clip_high"])
    c1 = np.maximum(l1, l2)
    clipfrac = (l2 > l1).astype(float)
    if cfg.get("clip_c") is None:
        return c1, clipfrac, np.zeros_like(c1), -nkl
    l3 = -adv * cfg["clip_c"]
    c2 = np.minimum(l3, c1)
    lower = ((c1 > l3) & (adv < 0)).astype(float)
    return np.where(adv < 0, c2, c1), clipfrac, lower, -nkl


def gspo(lp, old, adv, mask, cfg):
    nkl = lp - old
    seq = (nkl * mask).sum(-1) / np.maximum(mask.sum(-1), 1)
    s = np.exp(np.minimum(seq[:, None] + 0 * lp, 10.0))
    l1 = -adv * s
    l2 = -adv * np.clip(s, 1 - cfg["clip_low"], 1 + cfg["clip_high"])
    return np.maximum(l1, l2), (l2 > l1).astype(float), -nkl


def cispo(lp, old, adv, cfg):
    nkl = np.clip(lp - old, -20, 20)
    r = np.exp(nkl)
    w = np.clip(r, 1 - cfg["clip_low"], 1 + cfg["clip_high"])
    return -w * adv * lp, (r != w).astype(float), -nkl


def sapo(lp, old, adv, cfg):
    nkl = np.clip(lp - old, -20, 20)
    r = np.exp(nkl)
    tau = np.where(adv > 0, cfg["tau_pos"], cfg["tau_neg"])
    gate = 1 / (1 + np.exp(-tau * (r - 1))) * (4 / tau)
    return -gate * adv, -nkl


def is_weights(old, rollout, mask, level, cap):
    lr = old - rollout
    if level == "sequence":
        lr = np.repeat((lr * mask).sum(-1, keepdims=True), lr.shape[1], axis=1)
    return np.minimum(np.exp(np.clip(lr, -20, 20)), cap)


def rejection(old, rollout, mask, level, low, high):
    lr = old - rollout
    if level == "sequence":
        lr = np.repeat((lr * mask).sum(-1, keepdims=True), lr.shape[1], axis=1)
    w = np.exp(np.clip(lr, -20, 20))
    return ((w >= low) & (w <= high)).astype(float)


def kl(lp, ref, kind):
    if kind == "k1":
        return lp - ref
    if kind == "k2":
        return 0.5 * (lp - ref) ** 2
    x = np.clip(ref - lp, -20, 20)
    return np.clip(np.exp(x) - x - 1, -10, 10)


def entropy(logits):
    m = logits.max(-1, keepdims=True)
    lse = np.log(np.exp(logits - m).sum(-1)) + m[..., 0]
    p = np.exp(logits - lse[..., None])
    return lse - (p * logits).sum(-1)


def hl_gauss(y, lo, hi, n, sigma):
    edges = np.linspace(lo, hi, n + 1)
    cdf = np.array([math.erf((e - y) / (math.sqrt(2) * sigma)) for e in edges])
    return (cdf[1:] - cdf[:-1]) / (cdf[-1] - cdf[0])


def two_hot(y, lo, hi, n):
    w = (hi - lo) / n
    c = lo + (np.arange(n) + 0.5) * w
    y = min(max(y, c[0]), c[-1])
    k = min(math.floor((y - c[0]) / w), n - 2)
    p = np.zeros(n)
    p[k] = (c[k + 1] - y) / w
    p[k + 1] = 1 - p[k]
    return p


def log_softmax(z):
    m = z.max(-1, keepdims=True)
    return z - (np.log(np.exp(z - m).sum(-1, keepdims=True)) + m)


def rnd(rng, shape, scale=1.0):
    return np.round(rng.normal(size=shape) * scale, 6)


def mat(x):
    return [[float(v) for v in r] for r in np.asarray(x)]


def loss_cases():
    rng = np.random.default_rng(7)
    cases = []
    base = {"clip_low": 0.2, "clip_high": 0.2, "clip_c": 3.0, "tau_pos": 1.0, "tau_neg": 1.05}

    def case(name, loss, lp, old, adv, mask, cfg, agg, value, metrics, **extra):
        d = {
            "name": name,
            "loss": loss,
            "lp": mat(lp),
            "old": mat(old),
            "adv": mat(adv),
            "mask": mat(mask),
            "config": cfg,
            "agg": agg,
            "value": float(value),
            "metrics": metrics,
        }
        d.update({k: mat(v) for k, v in extra.items()})
        cases.append(d)

    B, T = 4, 7
    mask = np.ones((B, T))
    mask[0, 5:] = 0
    mask[1, 2:4] = 0  # multi-turn hole
    mask[3, 1:] = 0
    lp = rnd(rng, (B, T), 0.5) - 1.0
    old = lp + rnd(rng, (B, T), 0.3)
    adv = np.repeat(rnd(rng, (B, 1)), T, axis=1)
    # Ratios beyond the ±20 clamp and a dual-clip activation.
    old[0, 0], lp[0, 0], adv[0, 0] = -30.0, -2.0, 0.5  # log r = 28 → clamped at 20
    old[0, 1], lp[0, 1], adv[0, 1] = -1.0, -26.0, -0.7  # log r = −25 → clamped at −20
    old[2, 0], lp[2, 0], adv[2, 0] = -3.0, -1.5, -1.3  # r = e^1.5 ≈ 4.5 > 3, A < 0 → dual clip
    norm = full_norm(mask)
    for agg in ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"):
        for nm, cfg in (("vanilla", base), ("dapo", dict(base, clip_high=0.28)), ("no-dual", dict(base, clip_c=None))):
            pl, cf, lower, nkl = ppo_vanilla(lp, old, adv, cfg)
            m = {
                "actor/pg_clipfrac": masked_mean(cf, mask),
                "actor/pg_clipfrac_lower": masked_mean(lower, mask),
                "actor/ppo_kl": masked_mean(nkl, mask),
            }
            case(f"{nm}-{agg}", "vanilla", lp, old, adv, mask, cfg, agg, agg_loss(pl, mask, agg, norm), m)
        pl, cf, nkl = cispo(lp, old, adv, base)
        case(
            f"cispo-{agg}",
            "cispo",
            lp,
            old,
            adv,
            mask,
            base,
            agg,
            agg_loss(pl, mask, agg, norm),
            {"actor/pg_clipfrac": masked_mean(cf, mask), "actor/ppo_kl": masked_mean(nkl, mask)},
        )
        pl, nkl = sapo(lp, old, adv, base)
        case(
            f"sapo-{agg}",
            "sapo",
            lp,
            old,
            adv,
            mask,
            base,
            agg,
            agg_loss(pl, mask, agg, norm),
            {"actor/ppo_kl": masked_mean(nkl, mask)},
        )
        case(f"reinforce-{agg}", "reinforce", lp, old, adv, mask, base, agg, agg_loss(-adv * lp, mask, agg, norm), {})
    # GSPO: mild ratios (clipping happens at the sequence level).
    lp_g = old + rnd(rng, (B, T), 0.1)
    lp_g[1] = old[1] + 0.3  # a sequence whose ratio e^0.3 is clipped
    pl, cf, nkl = gspo(lp_g, old, adv, mask, base)
    case(
        "gspo",
        "gspo",
        lp_g,
        old,
        adv,
        mask,
        base,
        "seq-mean-token-mean",
        agg_loss(pl, mask, "seq-mean-token-mean", norm),
        {"actor/pg_clipfrac": masked_mean(cf, mask), "actor/ppo_kl": masked_mean(nkl, mask)},
    )
    # Truncated IS / rejection on top of vanilla, decoupled PPO.
    rollout = old + rnd(rng, (B, T), 0.4)
    for level in ("token", "sequence"):
        w = is_weights(old, rollout, mask, level, 2.0)
        pl, *_ = ppo_vanilla(lp, old, adv, base)
        case(
            f"tis-{level}",
            "vanilla",
            lp,
            old,
            adv,
            mask,
            base,
            "token-mean",
            agg_loss(pl * w, mask, "token-mean", norm),
            {},
            rollout=rollout,
            weights=w,
        )
        rj = rejection(old, rollout, mask, level, 0.5, 2.0)
        case(
            f"rejection-{level}",
            "vanilla",
            lp,
            old,
            adv,
            mask,
            base,
            "token-mean",
            agg_loss(pl * rj, mask, "token-mean", norm),
            {},
            rollout=rollout,
            weights=rj,
        )
    for cap in (None, 1.5):
        w = np.exp(np.clip(old - rollout, -20, 20))
        if cap is not None:
            w = np.where(w > cap, 0.0, w)
        pl, *_ = ppo_vanilla(lp, old, adv, base)
        cfg = dict(base, behav_weight_cap=cap)
        case(
            f"decoupled-cap-{cap}",
            "decoupled-ppo",
            lp,
            old,
            adv,
            mask,
            cfg,
            "token-mean",
            agg_loss(pl * w, mask, "token-mean", norm),
            {},
            rollout=rollout,
        )

    # KL estimators, with differences large enough to hit both clamps of k3.
    ref = lp + rnd(rng, (B, T), 1.0)
    ref[0, 2], ref[0, 3] = lp[0, 2] + 25.0, lp[0, 3] - 30.0
    kls = {k: mat(kl(lp, ref, k)) for k in ("k1", "k2", "k3")}
    # Entropy from logits.
    logits = rnd(rng, (2, 3, 5), 2.0)
    logits[0, 0, 0] = 40.0  # large logit: the max must be subtracted
    ent = entropy(logits)
    # Clipped value loss.
    vpred, ret, vold = rnd(rng, (B, T)), rnd(rng, (B, T)), rnd(rng, (B, T))
    vl = {}
    for agg in ("token-mean", "seq-mean-token-mean"):
        l1 = (vpred - ret) ** 2
        l2 = (np.clip(vpred, vold - 0.5, vold + 0.5) - ret) ** 2
        vl[agg] = 0.5 * agg_loss(np.maximum(l1, l2), mask, agg, norm)
    vf_clipfrac = masked_mean((l2 > l1).astype(float), mask)
    # Histogram targets and the classification loss.
    lo, hi, nb = -2.0, 2.0, 8
    ys = [-3.0, -1.9, -0.3, 0.0, 0.77, 1.99, 5.0]
    sigma = 0.75 * (hi - lo) / nb
    hl = [list(map(float, hl_gauss(y, lo, hi, nb, sigma))) for y in ys]
    th = [list(map(float, two_hot(y, lo, hi, nb))) for y in ys]
    vlogits = rnd(rng, (1, len(ys), nb))
    ce = -(np.array(hl)[None] * log_softmax(vlogits)).sum(-1)
    cmask = np.ones((1, len(ys)))
    cmask[0, 2] = 0
    closs = agg_loss(ce, cmask, "token-mean", full_norm(cmask))
    extras = {
        "kl": {"lp": mat(lp), "ref": mat(ref), **kls},
        "entropy": {"logits": logits.tolist(), "entropy": mat(ent)},
        "value": {
            "vpred": mat(vpred),
            "returns": mat(ret),
            "old": mat(vold),
            "mask": mat(mask),
            "clip": 0.5,
            "loss": vl,
            "clipfrac": float(vf_clipfrac),
        },
        "histogram": {
            "min": lo,
            "max": hi,
            "bins": nb,
            "sigma": sigma,
            "targets": ys,
            "hl_gauss": hl,
            "two_hot": th,
            "logits": vlogits.tolist(),
            "mask": mat(cmask),
            "loss": float(closs),
        },
    }
    return cases, extras


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "advantages.json"), "w") as f:
        json.dump({"generator": "tools/golden_algos.py", "cases": advantage_cases()}, f, indent=1)
    cases, extras = loss_cases()
    with open(os.path.join(OUT, "losses.json"), "w") as f:
        json.dump({"generator": "tools/golden_algos.py", "policy": cases, **extras}, f, indent=1)
    print("wrote", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
