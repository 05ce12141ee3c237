#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Draw pc-bench's scale curves from a results file as an SVG.

Reads the "PC-BENCH fig" lines of a results.txt (harness/run-guest.sh
writes one per make bench; bench/results-latest.txt is the published
copy) and draws, per measurement, perf_counter / perf_events against
the number of counters N: the median of the rounds' ratios, with a bar
from the lower to the upper quartile. Both axes are log2; 1 is parity.
The standard library only: the SVG is written by hand.

Usage: plot.py RESULTS.txt OUT.svg
"""
import math
import sys

# The scale's rows, as pc-bench names them, with their colours.
CURVES = [
    ('switch-a', 'switch (a): 2 children, N inherited', '#d62728'),
    ('switch-b', 'switch (b): opener and child, N inherited', '#ff7f0e'),
    ('switch-c', 'switch (c): 2 children, N own each', '#1f77b4'),
    ('switch-tasks', 'switch (e): ring of N tasks, 4 own each', '#17becf'),
    ('fork', 'fork+exit+wait, N inherited', '#2ca02c'),
    ('read', 'read() of each of a group of N', '#9467bd'),
    ('read-vs-group', 'read() of N vs one GROUP read', '#8c564b'),
    ('group-read', 'one GROUP read of N, both', '#e377c2'),
]

W, H = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 70, 270, 50, 60


def parse(path):
    """The figures by key, {key: {n: (median, q1, q3, flag)}}, and the
    header's '# name: value' lines."""
    figs, head = {}, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith('# ') and ': ' in line:
                name, value = line[2:].split(': ', 1)
                head[name] = value
            words = line.split()
            if len(words) < 8 or words[:2] != ['PC-BENCH', 'fig']:
                continue
            key, n = words[2], int(words[3])
            med, q1, q3 = (float(w) for w in words[4:7])
            figs.setdefault(key, {})[n] = (med, q1, q3, words[8])
    return figs, head


def esc(text):
    return (text.replace('&', '&amp;').replace('<', '&lt;')
            .replace('>', '&gt;'))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    figs, head = parse(sys.argv[1])
    curves = [(k, label, colour) for k, label, colour in CURVES if k in figs]
    if not curves:
        sys.exit(f'{sys.argv[1]}: no "PC-BENCH fig" lines of the scale')

    ns = sorted({n for k, _, _ in curves for n in figs[k]})
    # the y range: every quartile that is above zero, widened to powers
    # of two (an added cost's ratio can fall below zero in noise)
    ys = [v for k, _, _ in curves for m, a, b, _ in figs[k].values()
          for v in (m, a, b) if v > 0]
    ylo = math.floor(math.log2(min(ys + [1.0])))
    yhi = math.ceil(math.log2(max(ys + [1.0])))
    if yhi == ylo:
        yhi += 1
    xlo, xhi = math.log2(ns[0]), math.log2(ns[-1])
    if xhi == xlo:
        xhi += 1
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(n):
        return LEFT + (math.log2(n) - xlo) / (xhi - xlo) * pw

    def y(v):
        v = max(v, 2.0 ** ylo)
        return TOP + (yhi - math.log2(v)) / (yhi - ylo) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" '
           f'height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" '
           f'font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="15">perf_counter / '
           f'perf_events against N counters per task</text>']
    sub = ', '.join(head[k] for k in ('date', 'clock') if k in head)
    if sub:
        out.append(f'<text x="{LEFT}" y="39" fill="#555">{esc(sub)}; '
                   f'median of rounds, bars: quartiles</text>')
    # the grid: a line per power of two, parity darker
    for e in range(ylo, yhi + 1):
        v = 2.0 ** e
        colour = '#888' if e == 0 else '#ddd'
        out.append(f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{LEFT + pw}" '
                   f'y2="{y(v):.1f}" stroke="{colour}"/>')
        label = f'{v:g}' if v >= 1 else f'1/{int(1 / v)}'
        out.append(f'<text x="{LEFT - 8}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{label}</text>')
    for n in ns:
        out.append(f'<line x1="{x(n):.1f}" y1="{TOP}" x2="{x(n):.1f}" '
                   f'y2="{TOP + ph}" stroke="#eee"/>')
        out.append(f'<text x="{x(n):.1f}" y="{TOP + ph + 18}" '
                   f'text-anchor="middle">{n}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" '
               f'fill="none" stroke="#444"/>')
    out.append(f'<text x="{LEFT + pw / 2:.1f}" y="{H - 18}" '
               f'text-anchor="middle">N, counters per task (log2)</text>')
    out.append(f'<text x="18" y="{TOP + ph / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 18 {TOP + ph / 2:.1f})">ratio '
               f'(log2; below 1: perf_counter cheaper)</text>')

    for i, (key, label, colour) in enumerate(curves):
        pts = sorted(figs[key].items())
        # a small shift per curve keeps the bars apart
        shift = (i - (len(curves) - 1) / 2) * 3
        path = ' '.join(f'{x(n) + shift:.1f},{y(m):.1f}'
                        for n, (m, _, _, _) in pts if m > 0)
        out.append(f'<polyline points="{path}" fill="none" '
                   f'stroke="{colour}" stroke-width="2"/>')
        for n, (m, q1, q3, flag) in pts:
            cx = x(n) + shift
            out.append(f'<line x1="{cx:.1f}" y1="{y(q1):.1f}" '
                       f'x2="{cx:.1f}" y2="{y(q3):.1f}" stroke="{colour}"/>')
            fill = 'white' if flag == 'miss' else colour
            out.append(f'<circle cx="{cx:.1f}" cy="{y(m):.1f}" r="3.5" '
                       f'fill="{fill}" stroke="{colour}">'
                       f'<title>{esc(key)} N={n}: {m:.2f} '
                       f'({q1:.2f}..{q3:.2f})</title></circle>')
        ly = TOP + 10 + i * 20
        lx = LEFT + pw + 15
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 28}" y="{ly + 4}">{esc(label)}</text>')
    ly = TOP + 20 + len(curves) * 20
    out.append(f'<text x="{LEFT + pw + 15}" y="{ly}" fill="#555">open '
               f'dot: IQR of 10% or more</text>')
    out.append('</svg>')
    with open(sys.argv[2], 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
