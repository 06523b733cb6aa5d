"""Wording of a made-up homeowners policy, set in two columns by ``tests.pdfgen``.

Original text written for citeview's tests in the register of a real policy form; the
``{placeholders}`` are filled from a seed so different seeds print different numbers.
"""

from __future__ import annotations

COMPANY = "Harborline Mutual Life & Casualty Company"
TITLE = "HOMEOWNERS POLICY \u2014 SPECIAL FORM"
FORM = "Policy wording HM-HO3 ({edition})"
EDITIONS = ("07/24", "01/25", "10/23")

AGREEMENT = (
    "In return for the premium and your compliance with every provision of this policy, we will "
    "provide the insurance it describes. Throughout the policy, \u201cyou\u201d and "
    "\u201cyour\u201d mean the named insured shown in the Declarations and a spouse who lives in "
    "the same household; \u201cwe\u201d, \u201cus\u201d and \u201cour\u201d mean the Company "
    "providing the insurance. Words in quotation marks are defined below and carry the same "
    "meaning wherever they appear."
)

# (term, definition): printed as numbered paragraphs with the term run in, in bold.
DEFINITIONS = (
    ("Bodily injury", "means physical harm, sickness or disease to a person, including the care "
     "it requires, the loss of services it causes, and death that results from it."),
    ("Business", "means a trade, profession or occupation pursued full time, part time or "
     "occasionally, and any other activity carried on for money or other compensation, except "
     "an activity for which no insured received more than {business_limit} in total during the "
     "twelve months before the policy period."),
    ("Collapse", "means an abrupt falling down or caving in of a building or any part of it, so "
     "that the building or that part cannot be occupied for its intended purpose. A building "
     "that is still standing is not in a state of collapse, even if it shows cracking, bulging, "
     "sagging, leaning, settling, shrinkage or expansion."),
    ("Flood", "means a general and temporary condition of partial or complete inundation of "
     "normally dry land, from the overflow of inland or tidal waters, from the unusual and rapid "
     "accumulation or runoff of surface water from any source, or from mudflow."),
    ("Fungi", "means any type or form of fungus, including mold and mildew, together with any "
     "spores, scents, toxins or by-products that fungi produce or release."),
    ("Insured location", "means the residence premises; any other premises you use as a "
     "residence that are shown in the Declarations or that you acquire during the policy period "
     "for that purpose; and any premises you use in connection with such a residence."),
    ("Motor vehicle", "means a self-propelled land or amphibious vehicle, and any trailer being "
     "carried on, towed by, or hitched for towing by such a vehicle."),
    ("Occurrence", "means an accident, including continuous or repeated exposure to "
     "substantially the same harmful conditions, that results during the policy period in "
     "bodily injury or property damage."),
    ("Property damage", "means physical injury to, destruction of, or loss of use of tangible "
     "property."),
    ("Residence employee", "means an employee of an insured whose duties relate to the upkeep or "
     "use of the residence premises, including household and domestic services, or who does "
     "similar work elsewhere that is not connected with the business of an insured."),
    ("Residence premises", "means the one-family dwelling where you live, together with the "
     "grounds and other structures at that address, shown as the residence premises in the "
     "Declarations."),
    ("Vacant", "means that the dwelling holds none of the personal property needed for normal "
     "living and is not occupied by you or by anyone with your permission. A dwelling under "
     "construction is not vacant."),
)

EXCLUSIONS_INTRO = (
    "We do not insure loss caused directly or indirectly by any of the following. Such loss is "
    "excluded whatever other cause or event contributes to it, at the same time or in any "
    "sequence, and whether or not the loss is widespread."
)
# (heading, text): the order is shuffled by the seed, the lettering follows the printed order.
EXCLUSIONS = (
    ("Ordinance or law.", "The enforcement of any ordinance or law that regulates the "
     "construction, repair or demolition of a building or other structure, unless this policy "
     "specifically provides otherwise."),
    ("Earth movement.", "Earthquake, including shock waves or tremors before, during or after a "
     "volcanic eruption; landslide, mudslide or mudflow; subsidence or sinkhole; or any other "
     "sinking, rising or shifting of the earth. Direct loss by fire or explosion that follows "
     "is covered."),
    ("Water.", "Flood, whether or not driven by wind; water that backs up through sewers or "
     "drains or overflows from a sump pump; or water below the surface of the ground, including "
     "water that seeps or leaks through a foundation, driveway, sidewalk or swimming pool."),
    ("Power failure.", "The failure of power or any other utility service when the failure "
     "takes place away from the residence premises. If a peril insured against follows on the "
     "residence premises, we will pay only for the loss that follows."),
    ("Neglect.", "The neglect of an insured to use all reasonable means to save and preserve "
     "property at and after the time of a loss."),
    ("War.", "War, whether declared or not, civil war, insurrection, rebellion or revolution; a "
     "warlike act by a military force; or destruction, seizure or use of property for a "
     "military purpose, and any consequence of any of these."),
    ("Intentional loss.", "Any loss arising out of an act that an insured commits, or conspires "
     "to commit, with the intent to cause a loss."),
    ("Wear and tear.", "Wear and tear, marring or deterioration; mechanical breakdown, latent "
     "defect, or any quality of property that causes it to damage or destroy itself; smog, rust "
     "or other corrosion; or dry rot."),
    ("Fungi.", "Fungi, wet rot or bacteria, unless the loss results from a covered discharge of "
     "water that was hidden within the walls or ceilings, of which no insured was aware, and "
     "that is reported to us within {fungi_days} days of its discovery."),
    ("Vacancy.", "Vandalism and malicious mischief, and any loss that follows from them, if the "
     "dwelling has been vacant for more than {vacancy_days} consecutive days immediately "
     "before the loss."),
)

CONDITIONS = (
    ("Duties after loss.", "In case of a loss to covered property, you must give us or our "
     "agent prompt notice; protect the property from further damage and keep a record of what "
     "necessary repairs cost; prepare an inventory of the damaged personal property showing "
     "quantity, description, actual cash value and amount of loss; and, as often as we "
     "reasonably require, show us the damaged property and submit to examination under oath, "
     "out of the presence of any other insured, and sign the transcript."),
    ("Proof of loss.", "Within {proof_days} days after our request, you must send us a signed, "
     "sworn proof of loss that sets out, to the best of your knowledge and belief, the time and "
     "cause of the loss, the interests of every insured and of all others in the property, any "
     "other insurance that may cover the loss, and the specifications and repair estimates of "
     "any damaged building."),
    ("Loss settlement.", "Covered losses to buildings are settled at replacement cost without "
     "deduction for depreciation. We will pay no more than the smallest of: the limit of "
     "liability that applies to the building; the replacement cost of the damaged part of the "
     "building with material of like kind and quality, for the same use, on the same premises; "
     "or the amount actually and necessarily spent to repair or replace it."),
    ("Deductible.", "Unless this policy states otherwise, for any one loss we will pay only the "
     "part of the total of all loss payable that exceeds the deductible shown in the "
     "Declarations."),
    ("Appraisal.", "If you and we do not agree on the amount of a loss, either may demand an "
     "appraisal. Each party then chooses a competent and impartial appraiser within twenty days "
     "of receiving the other\u2019s written request, and the two appraisers choose an umpire. "
     "If they cannot agree on an umpire within fifteen days, you or we may ask a judge of a "
     "court of record in the state where the residence premises is located to choose one."),
    ("Suit against us.", "No action may be brought against us unless there has been full "
     "compliance with all of the terms of this policy and the action is started within "
     "{suit_years} after the date of loss."),
    ("Concealment or fraud.", "We provide coverage to no insured under this policy if, before or "
     "after a loss, an insured has intentionally concealed or misrepresented a material fact or "
     "circumstance, engaged in fraudulent conduct, or made false statements relating to this "
     "insurance."),
    ("Cancellation.", "You may cancel this policy at any time by returning it to us or by "
     "telling us in writing the date the cancellation is to take effect. We may cancel only for "
     "the reasons stated here, by telling you in writing the date it takes effect: for "
     "nonpayment of premium, at any time on at least ten days\u2019 notice; and, when the policy "
     "has been in effect for fewer than sixty days and is not a renewal with us, for any reason "
     "on at least {cancel_days} days\u2019 notice."),
    ("Our option.", "If we give you written notice within {option_days} days after we receive "
     "your signed, sworn proof of loss, we may repair or replace any part of the damaged "
     "property with material or property of like kind and quality."),
    ("Other insurance.", "If a loss covered by this policy is also covered by other "
     "insurance, we pay only the share of the loss that the limit of liability of this policy "
     "bears to the total amount of insurance covering the loss."),
    ("Subrogation.", "An insured may waive in writing, before a loss, all rights of recovery "
     "against any person. If they are not waived, we may require an assignment of the rights "
     "of recovery for a loss to the extent of our payment, and the insured must then sign and "
     "deliver all related papers and cooperate with us."),
    ("Abandonment of property.", "We need not accept any property abandoned by an insured, and "
     "our acceptance of damaged property for salvage does not mean that we admit the loss is "
     "covered."),
    ("Policy period.", "This policy applies only to loss that occurs during the policy period "
     "shown in the Declarations. It renews for a further period only when we offer renewal and "
     "you pay the premium we require before the current period ends."),
    ("Mortgage clause.", "If a mortgagee is named in this policy, a loss payable under Coverage "
     "A or B is paid to the mortgagee and to you, as interests appear. If we deny your claim, "
     "the denial does not apply to a valid claim of the mortgagee, provided the mortgagee tells "
     "us of any change in ownership or occupancy, or any substantial change in risk, of which "
     "it is aware."),
)

# Values each seed draws from, one per placeholder above.
VARIANTS: dict[str, tuple[str, ...]] = {
    "business_limit": ("$2,000", "$3,000", "$5,000"),
    "fungi_days": ("14", "30"),
    "vacancy_days": ("30", "60"),
    "proof_days": ("60", "90"),
    "suit_years": ("one year", "two years"),
    "cancel_days": ("10", "30"),
    "option_days": ("30", "45"),
}
