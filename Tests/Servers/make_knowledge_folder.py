#!/usr/bin/env python3
"""Writes a folder of notes to ask about, for the knowledge tests and bench/: COUNT Markdown
and text files in a few subfolders, about SIZE bytes each, of ordinary-looking words drawn
with a fixed seed (so every run makes the same folder). One fact, which no other file
shares, goes into the middle of file number 417 (or the last, in a smaller folder):

    make_knowledge_folder.py FOLDER [COUNT [SIZE]]

Prints the path of the file holding the fact."""
import os
import random
import sys

FACT = ("The lighthouse keeper named his tortoise Pemberton, and Pemberton sleeps under the "
        "brass telescope every afternoon.")

SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "tor", "vel", "dun", "ri", "po", "an", "es", "ul", "ber", "gan",
             "ti", "mo", "qua", "zen", "fi", "dro", "ple", "wis", "ham"]
COMMON = ["the", "and", "of", "to", "in", "a", "is", "that", "for", "on", "with", "as", "was", "at", "by",
          "report", "meeting", "budget", "project", "team", "week", "review", "plan", "result", "draft"]


def vocabulary(rng):
    made = ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(4000)]
    # Common words about a third of the time, as in prose.
    return made + COMMON * (len(made) // len(COMMON) // 2)


def main():
    folder = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    rng = random.Random(20261201)
    population = vocabulary(rng)
    fact_file = None
    target = 417 if count > 417 else count - 1
    for number in range(count):
        sub = os.path.join(folder, f"area-{number % 7}")
        os.makedirs(sub, exist_ok=True)
        path = os.path.join(sub, f"note-{number:04d}.{'md' if number % 2 else 'txt'}")
        text = rng.choices(population, k=size // 7)
        lines = [" ".join(text[i:i + 14]) for i in range(0, len(text), 14)]
        if number == target:
            lines.insert(len(lines) // 2, FACT)
            fact_file = path
        with open(path, "w") as f:
            f.write(f"# Note {number}\n\n" + "\n".join(lines) + "\n")
    print(fact_file)


if __name__ == "__main__":
    main()
