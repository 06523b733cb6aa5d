"""The particulars of a made-up applicant, drawn from a seed: names, addresses, amounts, answers.

Everything the application form prints that is not fixed wording comes from here, so one
seed gives one reproducible applicant and the layout code stays free of randomness.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

FIRST_NAMES = ("John", "Maria", "David", "Aisha", "Robert", "Elena", "Thomas", "Grace",
               "Samuel", "Priya", "Michael", "Hannah")
LAST_NAMES = ("Smith", "Okafor", "Lindqvist", "Moreno", "Brennan", "Castellano", "Whitfield",
              "Nakamura", "Delacroix", "Abernathy", "Sorensen", "Haddad")
STREETS = ("Birchwood Lane", "Harbor View Road", "Elm Street", "Quarry Hill Drive",
           "Old Mill Road", "Chestnut Avenue", "Larkspur Court", "Ridgeline Terrace")
TOWNS = (("Portland", "ME", "04101"), ("Burlington", "VT", "05401"),
         ("Concord", "NH", "03301"), ("Providence", "RI", "02903"),
         ("Hartford", "CT", "06103"), ("Worcester", "MA", "01608"))
OCCUPATIONS = ("High school teacher", "Civil engineer", "Registered nurse", "Accountant",
               "Electrician", "Pharmacist", "Software developer", "Dental hygienist")
RELATIONSHIPS = (("Spouse", ("Karen", "Daniel", "Sofia", "James")),
                 ("Daughter", ("Emily", "Chloe", "Nora", "Ava")),
                 ("Son", ("Lucas", "Owen", "Henry", "Leo")))
CONSTRUCTIONS = ("Wood frame", "Masonry veneer", "Brick", "Vinyl-sided frame")
# States whose residents get their own fraud notice; five are printed, alphabetically.
FRAUD_STATES = ("Arkansas", "Colorado", "Kentucky", "Louisiana", "Maine", "New Mexico", "Ohio",
                "Pennsylvania", "Tennessee", "Virginia", "Washington")
FRAUD_NOTICES = 5
AGENTS = ("Laura M. Benedetti", "Marcus T. Greene", "Deborah K. Yoon", "Patrick J. Fallon")
INSURERS = ("Northfield Life Assurance", "Granite State Mutual", "Pioneer National Life",
            "Atlantic Benefit Life")
PHYSICIANS = ("Dr. Rina Patel, Valley Medical Group", "Dr. Owen Marsh, Seaside Family Practice",
              "Dr. Lena Fischer, Northgate Internal Medicine")

SCHEDULED_ITEMS = (
    ("Ring", "Platinum solitaire engagement ring, 1.2 ct round diamond"),
    ("Watch", "Stainless steel automatic wristwatch with bracelet"),
    ("Painting", "Oil on canvas, coastal landscape, signed, 24 x 36 in."),
    ("Camera", "Full-frame mirrorless body with three lenses"),
    ("Violin", "Violin by a known maker, with bow and case"),
    ("Necklace", "Cultured pearl strand, 18 in., white gold clasp"),
    ("Silverware", "Sterling flatware service for twelve, 96 pieces"),
    ("Bicycle", "Carbon road bicycle with electronic shifting"),
    ("Rug", "Hand-knotted wool rug, 9 x 12 ft."),
    ("Coins", "Collection of U.S. gold coins, 14 pieces, in album"),
)

# Annual premium per $1,000 of limit, by coverage; deductibles in dollars (None: not applicable).
LIFE_RATE = 1.65
ADD_RATE = 0.96
DWELLING_RATE = 3.34
OTHER_STRUCTURES_SHARE = 0.10
CONTENTS_SHARE = 0.50
CONTENTS_RATE = 1.78
LIABILITY_PREMIUM = 64.0
CONSULT_REASONS = ("Annual physical; no new findings", "Blood pressure check; medication unchanged",
                   "Seasonal allergies; antihistamine advised", "Routine bloodwork; results normal")
REPLACING_ODDS = 0.2
# Probability of a "Yes" answer for each question of the form, in order (medical 1-6, loss 7-10).
YES_ODDS = (0.75, 0.15, 0.3, 0.35, 0.7, 0.1, 0.6, 0.1, 0.15, 0.3)


@dataclass(frozen=True, slots=True)
class CoverageLine:
    """One row of the rate table."""

    name: str
    limit: int
    deductible: int | None
    premium: float
    term: str

    def cells(self) -> tuple[str, str, str, str, str]:
        """The row's cells as printed."""
        return (self.name, money(self.limit),
                "None" if self.deductible is None else money(self.deductible),
                money(self.premium, cents=True), self.term)


@dataclass(frozen=True, slots=True)
class ExistingPolicy:
    """A life policy already in force on the Proposed Insured."""

    company: str
    number: str
    amount: int
    year: str

    def cells(self, *, replaced: bool) -> tuple[str, str, str, str, str]:
        """The row's cells as printed in the existing-insurance table."""
        return (self.company, self.number, money(self.amount), self.year,
                "Yes" if replaced else "No")


@dataclass(frozen=True, slots=True)
class Profile:
    """One applicant and the coverage applied for."""

    applicant: str
    birth_date: str
    sex: str
    ssn: str
    street: str
    city: str
    state: str
    zip_code: str
    phone: str
    email: str
    occupation: str
    income: str
    beneficiary: str
    relationship: str
    year_built: str
    construction: str
    policy_number: str
    signed_on: str
    agent: str
    agent_license: str
    physician: str
    height: str
    weight: str
    last_consulted: str
    consult_reason: str
    diagnosis_year: str
    loss_year: str
    loss_paid: str
    seed: int
    existing: tuple[ExistingPolicy, ...]
    replacing: bool
    coverages: tuple[CoverageLine, ...]
    answers: tuple[bool, ...]
    fraud_states: tuple[str, ...]

    @property
    def total_premium(self) -> float:
        return round(sum(c.premium for c in self.coverages), 2)


def money(amount: float, *, cents: bool = False) -> str:
    """Dollars as printed on a form: ``$385,000`` or ``$1,284.00``."""
    return f"${amount:,.2f}" if cents else f"${amount:,.0f}"


def make_profile(seed: int, *, applicant: str | None = None) -> Profile:
    """Draw an applicant from ``seed``; ``applicant`` overrides the drawn name."""
    rng = random.Random(seed)
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    name = applicant or f"{first} {rng.choice('ABCDEJKLMRTW')}. {last}"
    city, state, zip_code = rng.choice(TOWNS)
    relationship, kin = rng.choice(RELATIONSHIPS)
    surname = name.split()[-1]
    dwelling = rng.randrange(240, 620) * 1_000
    life = rng.choice((100, 150, 250, 300, 500)) * 1_000
    deductible = rng.choice((500, 1_000, 2_500))
    coverages = (
        CoverageLine("Term Life \u2013 20 Year Level", life, None,
                     round(life / 1000 * LIFE_RATE, 2), "20 years"),
        CoverageLine("Accidental Death Benefit Rider", 100_000, None,
                     round(100 * ADD_RATE, 2), "To age 70"),
        CoverageLine("Dwelling (Coverage A)", dwelling, deductible,
                     round(dwelling / 1000 * DWELLING_RATE, 2), "12 months"),
        CoverageLine("Other Structures (Coverage B)", int(dwelling * OTHER_STRUCTURES_SHARE),
                     deductible, round(dwelling * OTHER_STRUCTURES_SHARE / 1000 * 1.2, 2),
                     "12 months"),
        CoverageLine("Personal Property (Coverage C)", int(dwelling * CONTENTS_SHARE),
                     min(deductible, 1_000),
                     round(dwelling * CONTENTS_SHARE / 1000 * CONTENTS_RATE, 2), "12 months"),
        CoverageLine("Personal Liability (Coverage E)", 300_000, None, LIABILITY_PREMIUM,
                     "12 months"),
    )
    month, day = rng.randrange(1, 13), rng.randrange(1, 29)
    return Profile(
        applicant=name,
        birth_date=f"{rng.randrange(1, 13):02d}/{rng.randrange(1, 29):02d}/"
                   f"{rng.randrange(1956, 1994)}",
        sex=rng.choice(("M", "F")),
        ssn=f"XXX-XX-{rng.randrange(1000, 10000)}",
        street=f"{rng.randrange(12, 980)} {rng.choice(STREETS)}",
        city=city, state=state, zip_code=zip_code,
        phone=f"({rng.randrange(201, 990)}) 555-{rng.randrange(100, 10000):04d}",
        email=f"{name.split()[0].lower()}.{surname.lower()}@example.com",
        occupation=rng.choice(OCCUPATIONS),
        income=money(rng.randrange(42, 190) * 1_000),
        beneficiary=f"{rng.choice(kin)} {surname}",
        relationship=relationship,
        year_built=str(rng.randrange(1928, 2016)),
        construction=rng.choice(CONSTRUCTIONS),
        policy_number=f"HM-{rng.randrange(1000, 10000)}-{rng.randrange(1000, 10000)}",
        signed_on=f"{month:02d}/{day:02d}/2025",
        agent=rng.choice(AGENTS),
        agent_license=f"ME-{rng.randrange(100000, 1000000)}",
        physician=rng.choice(PHYSICIANS),
        height=f"{rng.randrange(5, 7)} ft {rng.randrange(0, 12)} in",
        weight=f"{rng.randrange(118, 236)} lb",
        last_consulted=f"{rng.randrange(1, 13):02d}/{rng.choice((2023, 2024))}",
        consult_reason=rng.choice(CONSULT_REASONS),
        diagnosis_year=str(rng.randrange(2012, 2024)),
        loss_year=str(rng.randrange(2020, 2025)),
        loss_paid=money(rng.randrange(18, 140) * 50),
        seed=seed,
        existing=tuple(
            ExistingPolicy(company, f"{rng.choice('ABLNT')}{rng.randrange(100000, 1000000)}",
                           rng.choice((25, 50, 100, 200)) * 1_000, str(rng.randrange(1998, 2023)))
            for company in rng.sample(INSURERS, rng.randrange(1, 3))),
        replacing=rng.random() < REPLACING_ODDS,
        coverages=coverages,
        answers=tuple(rng.random() < odds for odds in YES_ODDS),
        fraud_states=tuple(sorted(rng.sample(FRAUD_STATES, FRAUD_NOTICES))),
    )


def scheduled_items(
    profile: Profile, count: int, *, sheet: int = 0
) -> list[tuple[str, str, str, str]]:
    """Rows of a scheduled-property continuation sheet: item, description, date, agreed value.

    Drawn from a generator of its own (seed and sheet number), so adding sheets never changes
    what the other pages print.
    """
    rng = random.Random(f"{profile.seed}/{sheet}")
    rows = []
    for _ in range(count):
        item, description = rng.choice(SCHEDULED_ITEMS)
        appraised = f"{rng.randrange(1, 13):02d}/{rng.randrange(2022, 2025)}"
        rows.append((item, description, appraised, money(rng.randrange(8, 300) * 50)))
    return rows
