"""The fixed wording of the demo insurer's application form (original text, written for citeview).

Details templates are filled from a :class:`~scripts.demo_gen.profile.Profile` with
``str.format_map``; every other string is printed as it stands.
"""

from __future__ import annotations

COMPANY = "Harborline Mutual Life & Casualty Company"
HOME_OFFICE = "Home Office: 400 Wharf Street, Portland, Maine 04101"
ADMIN_OFFICE = "Administrative Office: P.O. Box 9120, Hartford, CT 06102 \u00b7 1-800-555-0142"
FORM_NUMBER = "Form HM-APP-3 (07/24)"
TITLE = "APPLICATION FOR INDIVIDUAL LIFE AND HOMEOWNERS INSURANCE"
SUBTITLE = ("Please type or print in ink. Answer every question; an incomplete application "
            "will be returned for completion.")

COVERAGE_INTRO = (
    "Complete this section for every coverage you are applying for. The premiums shown are the "
    "Company\u2019s final quoted rates for the risk class assigned at underwriting and become "
    "payable only when a policy is issued and delivered. Coverage under any policy issued takes "
    "effect on the later of the policy date and the date the first premium is received \u2014 no "
    "coverage is bound by the submission of this application alone. Any modification of the "
    "limits below after the application is signed requires a new subscription page initialed "
    "by the applicant."
)
RATE_HEADER = ("Coverage", "Limit of insurance", "Deductible", "Annual premium", "Policy term")
PREMIUM_NOTE = (
    "Premiums are annual and are guaranteed for the first policy term only if the policy is "
    "issued as applied for. Monthly installments carry a service charge of $3.00 per "
    "installment. Deductibles apply to each occurrence; the life coverage and the accidental "
    "death benefit rider carry none."
)
EXISTING_INTRO = ("List all life insurance and annuities in force or applied for on the "
                  "Proposed Insured (write \u201cNone\u201d if there are none).")
EXISTING_HEADER = ("Company", "Policy number", "Amount", "Year issued", "To be replaced?")
REPLACEMENT_QUESTION = ("Will the insurance applied for replace, change, or use the values of "
                        "any existing life insurance or annuity contract?")

MEDICAL_INTRO = (
    "Answer questions 1 through 6 for the Proposed Insured. Give full details of every "
    "\u201cYes\u201d answer in the space provided below question 6, including dates, diagnoses, "
    "and the name and address of each physician consulted."
)
# (question, details printed when the answer is "Yes")
MEDICAL_QUESTIONS = (
    ("Has the Proposed Insured ever been diagnosed with, treated for, or advised by a physician "
     "to seek treatment for high blood pressure, chest pain, heart attack, heart disease, or "
     "stroke?",
     "Hypertension diagnosed {diagnosis_year}; controlled with lisinopril 10 mg daily \u2013 "
     "{physician}."),
    ("Has the Proposed Insured ever been diagnosed with or treated for diabetes, cancer, or any "
     "disorder of the kidneys, liver, or lungs?",
     "Basal cell carcinoma, left forearm, excised {diagnosis_year}; no recurrence at annual "
     "follow-up."),
    ("Within the past five years, has the Proposed Insured used cigarettes, cigars, a pipe, "
     "chewing tobacco, e-cigarettes, or any other product containing nicotine?",
     "Occasional cigars, fewer than twelve a year; last use in {loss_year}."),
    ("Within the past five years, has the Proposed Insured been a patient in a hospital or "
     "clinic, had surgery, or been advised to have a diagnostic test that has not been "
     "completed?",
     "Arthroscopic repair of the right knee meniscus, {diagnosis_year}; full recovery, no "
     "restrictions."),
    ("Is the Proposed Insured currently taking any medication prescribed by a physician or "
     "other licensed practitioner?",
     "Atorvastatin 20 mg daily for elevated cholesterol, prescribed by {physician}."),
    ("Has any application for life or health insurance on the Proposed Insured ever been "
     "declined, postponed, rated, or issued with modified benefits?",
     "Term life application postponed by another insurer in {loss_year} pending blood pressure "
     "readings."),
)
PROPERTY_INTRO = "Answer questions 7 through 10 for the property to be insured."
PROPERTY_QUESTIONS = (
    ("Within the past five years, has the applicant had any loss or damage to property, "
     "whether or not a claim was made or paid?",
     "Water damage from a burst supply pipe in the kitchen, {loss_year}; claim paid "
     "{loss_paid} by the prior insurer."),
    ("Has any insurer cancelled, declined, or refused to renew property insurance for the "
     "applicant within the past three years?",
     "Prior carrier did not renew in {loss_year} after withdrawing from the county."),
    ("Is any business, day care, or short-term rental activity conducted on the premises?",
     "Home office only; no clients or employees visit the premises."),
    ("Is there a swimming pool, trampoline, or wood-burning stove on the premises, or a dog "
     "with any history of biting?",
     "In-ground pool enclosed by a four-foot fence with a self-latching gate."),
)
DETAILS_LABEL = ("Details of \u201cYes\u201d answers (question number, diagnosis or loss, dates, "
                 "physician or insurer):")

AUTHORIZATION = (
    "I authorize any licensed physician, medical practitioner, hospital, clinic, pharmacy, "
    "pharmacy benefit manager, consumer reporting agency, insurance company, or MIB, Inc. that "
    "has any record or knowledge of me or my health to give Harborline Mutual Life & Casualty "
    "Company, or its reinsurers, any such information. The information obtained will be used "
    "only to determine my eligibility for insurance and to administer claims, and it will be "
    "kept confidential except as the law requires or permits. This authorization is valid for "
    "twenty-four months from the date it is signed; a photocopy is as valid as the original. "
    "I understand that I, or my authorized representative, may request a copy of it, and that "
    "the Company\u2019s notification of any adverse underwriting decision will state its reasons."
)

FRAUD_INTRO = ("The following warnings are required by the states named. Read the warning for "
               "the state in which you reside; it forms part of this application.")
# Identical in every state but for the name: the near-duplicate boilerplate real forms carry.
FRAUD_WARNING = (
    "Any person who knowingly and with intent to defraud any insurance company or other person "
    "files an application for insurance or statement of claim containing any materially false "
    "information, or conceals for the purpose of misleading information concerning any fact "
    "material thereto, commits a fraudulent insurance act, which is a crime and subjects such "
    "person to criminal and civil penalties under the laws of {state}."
)

DECLARATION = (
    "I have read, or have had read to me, the completed application, and I declare that the "
    "statements and answers in it are true, complete, and correctly recorded to the best of my "
    "knowledge and belief. I understand that the Company will rely on them in deciding whether "
    "to issue a policy, and that any misrepresentation or concealment of a material fact may "
    "void the policy from its inception. No agent or broker may make, modify, or waive any of "
    "the Company\u2019s rights or requirements \u2014 only an officer of the Company may do so, "
    "in writing. I acknowledge receipt of the Notice of Information Practices and the "
    "Buyer\u2019s Guide, and I understand that the first premium must accompany this "
    "application."
)
AGENT_STATEMENT = (
    "I certify that I personally met the applicant, that I have truly and accurately recorded "
    "on this application the information the applicant supplied, and that I know of nothing "
    "affecting the insurability of the Proposed Insured that is not fully recorded here."
)
APPLICANT_LABELS = ("Signature of Applicant", "Print Name", "Date")
AGENT_LABELS = ("Signature of Licensed Agent", "Agent License No.", "Date")
HOME_OFFICE_BOX = "FOR HOME OFFICE USE ONLY \u2014 Amendments and corrections"

SUPPLEMENT_TITLE = "SUPPLEMENTAL SCHEDULE \u2014 SCHEDULED PERSONAL PROPERTY"
SUPPLEMENT_INTRO = (
    "Items listed below are insured for the agreed value shown, in addition to the Personal "
    "Property limit of Coverage C. An appraisal or bill of sale dated within the past three "
    "years must accompany each item valued above $5,000; the Company may require a new "
    "appraisal at renewal."
)
SUPPLEMENT_HEADER = ("Item", "Description", "Appraised", "Agreed value")
SUPPLEMENT_REMARKS = (
    "Remarks: values are agreed values for scheduled items only. Loss to a scheduled item is "
    "paid without deductible, and the Company\u2019s determination of the amount payable is "
    "final only after the appraisal and proof of ownership have been received."
)
