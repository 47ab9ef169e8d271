"""Independent checks of hill, playfair, known_plaintext and custom_cipher, from the prompt text
alone: our own decryption / encryption (the key from the prompt, or every key consistent with the
stated known plaintext, asserting the decryption is unique), compared with gauntlet's verdicts on
our answer and on near misses."""

from __future__ import annotations

import re
from itertools import product

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3
A = ord("A")


def body(q):
    return q.split("Think it through")[0]


def line(q, label):
    return re.search(rf"^{label}:? +(.*)$", q, re.M).group(1).strip()


def word_misses(text):
    """(answer, label) near misses of a spaced message: one letter changed, last word dropped,
    two different words swapped."""
    out = []
    i = next(k for k, ch in enumerate(text) if ch.isalpha())
    out.append((text[:i] + chr((ord(text[i]) - A + 1) % 26 + A) + text[i + 1 :], "one letter changed"))
    words = text.split()
    if len(words) > 1:
        out.append((" ".join(words[:-1]), "last word dropped"))
        if words[0] != words[-1]:
            out.append((" ".join([words[-1], *words[1:-1], words[0]]), "first and last words swapped"))
    return out


def check_message(data, entry, mine):
    agree(data, entry, mine, True, "our decryption")
    for text, what in word_misses(mine):
        agree(data, entry, text, False, what)


# ---------------------------------------------------------------- hill


def hill_apply(text, k):
    """Apply the 2x2 matrix k to consecutive letter pairs (spaces skipped, then put back)."""
    letters = [ord(ch) - A for ch in text if ch.isalpha()]
    assert len(letters) % 2 == 0
    out = []
    for x, y in zip(letters[::2], letters[1::2], strict=True):
        out += [(k[0][0] * x + k[0][1] * y) % 26, (k[1][0] * x + k[1][1] * y) % 26]
    it = iter(out)
    return "".join(chr(next(it) + A) if ch.isalpha() else ch for ch in text)


def inverse2(k):
    det = (k[0][0] * k[1][1] - k[0][1] * k[1][0]) % 26
    inv = pow(det, -1, 26)
    return [[k[1][1] * inv % 26, -k[0][1] * inv % 26], [-k[1][0] * inv % 26, k[0][0] * inv % 26]]


def mat(text):
    a, b, c, d = map(int, re.findall(r"\d+", text))
    return [[a, b], [c, d]]


@pytest.mark.parametrize("level", LEVELS)
def test_hill(level):
    for data, entry in entries("hill", level, SEEDS):
        q = body(entry["question"])
        k = mat(re.search(r"The key is K = (\[\[.*?\]\])", q).group(1))
        ct = line(q, "Ciphertext")
        inv = inverse2(k)
        if m := re.search(r"Its inverse mod 26 is (\[\[.*?\]\])", q):
            assert mat(m.group(1)) == inv, "the stated inverse is wrong"
        pt = hill_apply(ct, inv)
        assert hill_apply(pt, k) == ct
        check_message(data, entry, pt)


# ---------------------------------------------------------------- playfair


def playfair_square(q):
    key = re.search(r"keyword ([A-Z]+)", q).group(1)
    order = []
    for ch in key + "ABCDEFGHIKLMNOPQRSTUVWXYZ":
        if ch not in order:
            order.append(ch)
    square = [order[i * 5 : i * 5 + 5] for i in range(5)]
    if "The square:" in q:
        shown = [ln.split() for ln in q.split("The square:")[1].strip().splitlines()[:5]]
        assert shown == square, "the shown square differs from the keyword rule"
    return square


def playfair_decrypt(ct, square):
    pos = {ch: (r, c) for r, row in enumerate(square) for c, ch in enumerate(row)}
    out = []
    for a, b in zip(ct[::2], ct[1::2], strict=True):
        (ra, ca), (rb, cb) = pos[a], pos[b]
        if ra == rb:
            out += [square[ra][(ca - 1) % 5], square[rb][(cb - 1) % 5]]
        elif ca == cb:
            out += [square[(ra - 1) % 5][ca], square[(rb - 1) % 5][cb]]
        else:
            out += [square[ra][cb], square[rb][ca]]
    return "".join(out)


@pytest.mark.parametrize("level", LEVELS)
def test_playfair(level):
    for data, entry in entries("playfair", level, SEEDS):
        q = body(entry["question"])
        square = playfair_square(q)
        ct = line(q, "Ciphertext")
        pt = playfair_decrypt(ct, square)
        # the prompt says the message was split into pairs of different letters
        assert all(a != b for a, b in zip(pt[::2], pt[1::2], strict=True))
        agree(data, entry, pt, True, "our decryption")
        agree(data, entry, " ".join(pt[i : i + 4] for i in range(0, len(pt), 4)), True, "spaces (optional)")
        agree(data, entry, pt.lower(), True, "lower case")
        agree(data, entry, pt[:-2], False, "last pair dropped")
        agree(data, entry, pt[1] + pt[0] + pt[2:], pt[0] == pt[1], "first two letters swapped")
        agree(data, entry, ct, ct == pt, "the ciphertext itself")


# ---------------------------------------------------------------- known_plaintext


def affine_keys():
    return [(a, b) for a in range(1, 26, 2) if a != 13 for b in range(26)]


def known_decryptions(q, known, known_ct, ct):
    """Every decryption of `ct` under a key of the stated kind that maps `known` to `known_ct`."""
    kp = [ord(ch) - A for ch in known if ch.isalpha()]
    kc = [ord(ch) - A for ch in known_ct if ch.isalpha()]
    assert [ch == " " for ch in known] == [ch == " " for ch in known_ct]
    letter = lambda f: "".join(chr(f(ord(ch) - A, i) + A) for i, ch in enumerate(ct.replace(" ", "")))  # noqa: E731

    def respace(s):
        it = iter(s)
        return "".join(next(it) if ch != " " else " " for ch in ct)

    if "Caesar cipher" in q:
        keys = [s for s in range(26) if all((p + s) % 26 == c for p, c in zip(kp, kc, strict=True))]
        return {respace(letter(lambda x, i, s=s: (x - s) % 26)) for s in keys}
    if "affine cipher" in q:
        keys = [(a, b) for a, b in affine_keys() if all((a * p + b) % 26 == c for p, c in zip(kp, kc, strict=True))]
        return {respace(letter(lambda x, i, a=a, b=b: pow(a, -1, 26) * (x - b) % 26)) for a, b in keys}
    if "Vigenère" in q:
        n = int(re.search(r"unknown key of (\d+) letters", q).group(1))
        shifts = [{(c - p) % 26 for j, (p, c) in enumerate(zip(kp, kc, strict=True)) if j % n == i} for i in range(n)]
        assert all(len(s) == 1 for s in shifts), "the known plaintext gives no single consistent key"
        key = [next(iter(s)) for s in shifts]
        return {respace(letter(lambda x, i: (x - key[i % n]) % 26))}
    if "Hill cipher" in q:
        pairs = list(zip(zip(kp[::2], kp[1::2], strict=True), zip(kc[::2], kc[1::2], strict=True), strict=True))
        rows = [
            [
                (a, b)
                for a, b in product(range(26), repeat=2)
                if all((a * x + b * y - c[r]) % 26 == 0 for (x, y), c in pairs)
            ]
            for r in (0, 1)
        ]
        out = set()
        for r0, r1 in product(*rows):
            k = [list(r0), list(r1)]
            det = (k[0][0] * k[1][1] - k[0][1] * k[1][0]) % 26
            if det % 2 and det % 13:
                out.add(hill_apply(ct, inverse2(k)))
        return out
    raise AssertionError("unknown cipher kind")


@pytest.mark.parametrize("level", LEVELS)
def test_known_plaintext(level):
    for data, entry in entries("known_plaintext", level, SEEDS):
        q = body(entry["question"])
        known, known_ct = line(q, "Known plaintext"), line(q, "Its ciphertext")
        ct = line(q, "Decrypt this second ciphertext")
        cands = known_decryptions(q, known, known_ct, ct)
        assert len(cands) == 1, (level, entry["metadata"]["seed"], sorted(cands)[:3])
        check_message(data, entry, cands.pop())


# ---------------------------------------------------------------- custom_cipher

VOWELS = "AEIOU"


def shift(ch, k):
    return chr((ord(ch) - A + k) % 26 + A)


def swap_pairs(w):
    s = list(w)
    for i in range(0, len(s) - 1, 2):
        s[i], s[i + 1] = s[i + 1], s[i]
    return "".join(s)


def step_fns(text):
    """(encrypt, decrypt) on a list of words for one step of the prompt."""
    each = lambda f: lambda ws: [f(w) for w in ws]  # noqa: E731
    if text == "reverse the order of the words":
        return (lambda ws: ws[::-1]), (lambda ws: ws[::-1])
    if text == "reverse the letters of each word":
        return each(lambda w: w[::-1]), each(lambda w: w[::-1])
    if text == "move the first letter of each word to the end of that word":
        return each(lambda w: w[1:] + w[:1]), each(lambda w: w[-1:] + w[:-1])
    if m := re.fullmatch(r"shift every letter forward by (\d+) in the alphabet \(wrapping Z to A\)", text):
        k = int(m.group(1))
        return each(lambda w: "".join(shift(c, k) for c in w)), each(lambda w: "".join(shift(c, -k) for c in w))
    if text.startswith("in each word, swap the 1st and 2nd letters, the 3rd and 4th"):
        return each(swap_pairs), each(swap_pairs)
    if text.startswith("replace every letter by its mirror in the alphabet"):
        mirror = each(lambda w: "".join(chr(25 - (ord(c) - A) + A) for c in w))
        return mirror, mirror
    if text.startswith("in each word, shift the 1st letter by 0, the 2nd by 1, the 3rd by 2"):
        return (
            each(lambda w: "".join(shift(c, i) for i, c in enumerate(w))),
            each(lambda w: "".join(shift(c, -i) for i, c in enumerate(w))),
        )
    if text.startswith("replace each vowel by the next one in the cycle A→E→I→O→U→A"):
        nxt = {v: VOWELS[(i + 1) % 5] for i, v in enumerate(VOWELS)}
        prv = {b: a for a, b in nxt.items()}
        return each(lambda w: "".join(nxt.get(c, c) for c in w)), each(lambda w: "".join(prv.get(c, c) for c in w))
    raise AssertionError(f"unknown step {text!r}")


@pytest.mark.parametrize("level", LEVELS)
def test_custom_cipher(level):
    for data, entry in entries("custom_cipher", level, SEEDS + 2):
        q = body(entry["question"])
        steps = [step_fns(s) for s in re.findall(r"^\d+\. (.*)$", q, re.M)]
        assert steps
        if "Encrypt this message" in q:
            words = line(q, "Message").split()
            for enc, _ in steps:
                words = enc(words)
        else:
            words = line(q, "Ciphertext").split()
            for _, dec in reversed(steps):
                words = dec(words)
            # decryption must re-encrypt to the ciphertext (every step is a bijection)
            back = words
            for enc, _ in steps:
                back = enc(back)
            assert back == line(q, "Ciphertext").split()
        check_message(data, entry, " ".join(words))
