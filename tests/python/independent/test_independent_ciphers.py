"""Independent checks of vigenere, rail_fence and columnar_transposition, from the prompt text
alone: our own decryption (the key from the prompt, or recovered from the stated crib / vocabulary,
asserting it is the only one), compared with gauntlet's verdicts."""

from __future__ import annotations

import re
from functools import cache

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


def body(q):
    return q.split("Think it through")[0]


def letters_only(s):
    return "".join(ch for ch in s if ch.isalpha())


def vig_decrypt(ct, key):
    out, i = [], 0
    for ch in ct:
        if ch.isalpha():
            out.append(chr((ord(ch) - ord(key[i % len(key)])) % 26 + 65))
            i += 1
        else:
            out.append(ch)
    return "".join(out)


@pytest.mark.parametrize("level", LEVELS)
def test_vigenere(level):
    for data, entry in entries("vigenere", level, SEEDS):
        q = body(entry["question"])
        ct = re.search(r"^Ciphertext: (.*)$", q, re.M).group(1)
        if m := re.search(r"The key is ([A-Z]+)\.", q):
            key = m.group(1)
        else:
            m = re.search(r"it has (\d+) letters, and the message begins with the words?: ([A-Z ]+)\.", q)
            n, crib = int(m.group(1)), letters_only(m.group(2))
            assert len(crib) >= n, "the crib does not determine every key letter"
            c = letters_only(ct)
            key = "".join(chr((ord(c[i]) - ord(crib[i])) % 26 + 65) for i in range(n))
            assert all((ord(c[i]) - ord(crib[i])) % 26 == ord(key[i % n]) - 65 for i in range(len(crib)))
        pt = vig_decrypt(ct, key)
        agree(data, entry, pt, True, "our decryption")
        agree(data, entry, pt.lower(), True, "lower case")
        agree(data, entry, " ".join(pt.split()[:-1]), False, "last word missing")


def rail_decrypt(ct, rails):
    n = len(ct)
    pattern = []
    r, step = 0, 1
    for _ in range(n):
        pattern.append(r)
        if rails > 1:
            if r == 0:
                step = 1
            elif r == rails - 1:
                step = -1
            r += step
    order = sorted(range(n), key=lambda i: (pattern[i], i))
    out = [""] * n
    for ch, i in zip(ct, order, strict=True):
        out[i] = ch
    return "".join(out)


@pytest.mark.parametrize("level", LEVELS)
def test_rail_fence(level):
    for data, entry in entries("rail_fence", level, SEEDS):
        q = body(entry["question"])
        ct = re.search(r"^Ciphertext: (.*)$", q, re.M).group(1).replace(" ", "")
        if m := re.search(r"The message was written on (\d+) rails", q):
            cands = [rail_decrypt(ct, int(m.group(1)))]
        else:
            lo, hi = map(int, re.search(r"unknown, between (\d+) and (\d+)", q).groups())
            vocab = re.search(r"sequence of these words: ([A-Z, ]+)\.", q).group(1).split(", ")

            def segmentable(s, vocab=tuple(vocab)):
                @cache
                def ok(i):
                    return i == len(s) or any(s.startswith(w, i) and ok(i + len(w)) for w in vocab)

                return ok(0)

            cands = sorted({p for r in range(lo, hi + 1) if segmentable(p := rail_decrypt(ct, r))})
        assert len(cands) == 1, (level, entry["metadata"]["seed"], cands)
        agree(data, entry, cands[0], True, "our decryption")
        agree(data, entry, cands[0][::-1], cands[0][::-1] == cands[0], "reversed")


@pytest.mark.parametrize("level", LEVELS)
def test_columnar_transposition(level):
    for data, entry in entries("columnar_transposition", level, SEEDS):
        q = body(entry["question"])
        key = re.search(r"headed by the letters of the keyword ([A-Z]+)", q).group(1)
        ct = re.search(r"^Ciphertext: (.*)$", q, re.M).group(1).replace(" ", "")
        k = len(key)
        assert len(ct) % k == 0
        rows = len(ct) // k
        order = sorted(range(k), key=lambda i: (key[i], i))
        cols = {}
        for j, c in enumerate(order):
            cols[c] = ct[j * rows : (j + 1) * rows]
        pt = "".join(cols[c][r] for r in range(rows) for c in range(k))
        agree(data, entry, pt, True, "our decryption")
        agree(data, entry, ct, ct == pt, "the ciphertext itself")


def affine_decrypt(ct, a, b):
    inv = pow(a, -1, 26)
    return "".join(chr(inv * (ord(ch) - 65 - b) % 26 + 65) if ch.isalpha() else ch for ch in ct)


@pytest.mark.parametrize("level", LEVELS)
def test_affine(level):
    for data, entry in entries("affine", level, SEEDS):
        q = body(entry["question"])
        ct = re.search(r"^Ciphertext: (.*)$", q, re.M).group(1)
        if m := re.search(r"The key is a = (\d+), b = (\d+)\.", q):
            cands = [affine_decrypt(ct, int(m.group(1)), int(m.group(2)))]
        else:
            vocab = set(re.search(r"Every word of the message is one of: ([A-Z, ]+)\.", q).group(1).split(", "))
            keys = [(a, b) for a in range(1, 26, 2) if a != 13 for b in range(26)]
            plains = {affine_decrypt(ct, a, b) for a, b in keys}
            cands = sorted(p for p in plains if all(w in vocab for w in p.split()))
        assert len(cands) == 1, (level, entry["metadata"]["seed"], cands)
        agree(data, entry, cands[0], True, "our decryption")
        agree(data, entry, cands[0].replace(" ", ""), True, "spaces left out (letters compared)")
        agree(data, entry, cands[0][:-1], False, "last letter missing")


@pytest.mark.parametrize("level", LEVELS)
def test_substitution(level):
    for data, entry in entries("substitution", level, SEEDS):
        q = body(entry["question"])
        sp = re.search(r"^Sample plaintext: +(.*)$", q, re.M).group(1)
        sc = re.search(r"^Sample ciphertext: +(.*)$", q, re.M).group(1)
        ct = re.search(r"^Ciphertext to decrypt: (.*)$", q, re.M).group(1)
        key: dict[str, str] = {}
        for p, c in zip(sp.replace(" ", ""), sc.replace(" ", ""), strict=True):
            assert key.setdefault(c, p) == p
        unknown = {ch for ch in ct if ch.isalpha() and ch not in key}
        m = re.search(r"Every word of the message is one of: ([A-Z, ]+)\.", q)
        if unknown:
            assert m, "letters the sample does not reveal, and no vocabulary to pin them down"
            vocab = set(m.group(1).split(", "))
            free = sorted(set("ABCDEFGHIJKLMNOPQRSTUVWXYZ") - set(key.values()))
            words = ct.split()
            sols = set()

            def rec(i, k, words=words, vocab=vocab, free=free, sols=sols, key=key):
                if i == len(words):
                    sols.add(" ".join("".join(k[ch] for ch in w) for w in words))
                    return
                w = words[i]
                for cand in vocab:
                    if len(cand) != len(w):
                        continue
                    k2 = dict(k)
                    if (
                        all(k2.setdefault(c, p) == p for c, p in zip(w, cand, strict=True))
                        and len(set(k2.values())) == len(k2)
                        and all(k2[c] in free or c in key for c in w)
                    ):
                        rec(i + 1, k2)

            rec(0, dict(key))
            cands = sorted(sols)
        else:
            cands = ["".join(key.get(ch, ch) for ch in ct)]
        assert len(cands) == 1, (level, entry["metadata"]["seed"], cands[:3])
        agree(data, entry, cands[0], True, "our decryption")
        agree(data, entry, " ".join(cands[0].split()[:-1]), False, "last word missing")
