package deckgen

// Text the generator draws from, written for this project.
var (
	deckTitles = []string{
		"Quarterly Business Review", "Annual Strategy Update", "Customer Insights Briefing",
		"Product Roadmap 2027", "Operations Excellence Program",
	}
	quarters    = []string{"Q1 2026", "Q2 2026", "Q3 2026", "Q4 2026", "FY 2026"}
	sections    = []string{"Market Overview", "Financial Results", "Customer Success", "Roadmap", "Appendix"}
	slideTitles = []string{
		"Where we grew this quarter", "What our customers told us", "Priorities for next quarter",
		"How the platform scales", "Risks and mitigations", "Team and hiring plan",
		"Pricing experiments", "Partner ecosystem", "Security and compliance",
	}
	tableTitles = []string{"Revenue by region", "Regional performance", "Customer growth by market"}
	chartTitles = []string{"Revenue and costs by quarter", "Quarterly trend", "Where the money goes"}
	cardLabels  = []string{
		"Net revenue retention", "Active customers", "On-time delivery", "Support tickets solved",
		"Gross margin", "Pipeline coverage", "Employee engagement",
	}
	bulletLines = []string{
		"Renewals closed ahead of plan in every region",
		"Onboarding time fell from 21 to 9 days",
		"Two new data centers opened in Frankfurt and Osaka",
		"Churn concentrated in the smallest accounts",
		"Self-serve sign-ups doubled after the pricing change",
		"Partner-sourced deals reached a third of new bookings",
		"Support satisfaction held at 94 percent",
		"Hiring focused on solutions engineering",
		"Infrastructure cost per customer dropped 12 percent",
		"Roadmap items shipped on schedule: 14 of 16",
	}
	paragraphs = []string{
		"Customers adopt the analytics suite fastest when onboarding includes a guided first report; we now pair every new account with a specialist for its first two weeks.",
		"Our largest markets grew steadily while the newest regions doubled from a small base. We will keep investing where partners already sell for us.",
		"The platform team moved the reporting engine to a streaming design, cutting dashboard latency in half and lowering compute spend.",
		"We expect pricing to stay stable next year. Discounts will be tied to multi-year commitments rather than volume alone.",
	}
	regions = []string{"North America", "Europe", "Asia Pacific", "Latin America", "Middle East", "Africa"}
)
