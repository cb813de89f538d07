"""Writes lanterns-mistakes.xlsx beside this file: cards of tests/data/lantern-guild with ten kinds
of mistakes, one each, that tests/test_spreadsheets.py expects reported with their cells.

    .venv/bin/python tests/data/spreadsheets/make_mistakes.py
"""

from pathlib import Path

import xlsxwriter

LAMPLIGHTER = [  # a worksheet named after a card type: its rows are lamplighters
    ["name", "cost", "district", "rarity", "glow", "keywords", "tools", "colour", "copies"],
    ["Wick Runner", 1, "Harbour", "common", 2, "", "", "", 2],
    ["Lamp Oiler", 1, "Harbour", "common", "lots", "", "", "", ""],            # E3: not a number
    ["Tower Keeper", 9, "Market", "rare", 5, "", "", "", ""],                  # B4: out of range
    ["Dock Warden", 2, "Harbor", "common", 3, "", "", "", ""],                 # C5: not a district
    ["Ember Crier", 2, "Market", "common", 3, "Kindle; Kindel", "", "", ""],   # F6: unknown keyword
    ["Quiet Lamp", 2, "Market", "", 3, "", "", "", ""],                        # D7: rarity missing
    ["Bell Ringer", 2, "Market", "common", 3, "", "{name: Bell, uses: 2", "", ""],  # G8: bad YAML
    ["Fog Watcher", 2, "Old Town", "common", 3, "", "", "", 0],                # I9: copies 0
    ["Glass Maker", 3, "Old Town", "uncommon", 4, "", "", "blue", ""],         # H1: no such field
]
MIXED = [  # any other name: a type column
    ["name", "type", "district", "rarity", "text"],
    ["Wick Runner", "relic", "Neutral", "rare", "A second card of this name."],  # A2: duplicate
    ["Night Spell", "spell", "Neutral", "rare", "No such type."],              # B3: unknown type
]


def main() -> None:
    path = Path(__file__).with_name("lanterns-mistakes.xlsx")
    book = xlsxwriter.Workbook(path, {"strings_to_numbers": False})
    for name, rows in (("Lamplighter", LAMPLIGHTER), ("Mixed", MIXED)):
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value != "":
                    sheet.write(r, c, value)
    book.set_properties({"created": None})
    book.close()


if __name__ == "__main__":
    main()
