/**
 * Hand-written phrase banks for the labelled conversation corpus: twelve support topics of a
 * documentation service, each with subjects, problem statements and details written in
 * different words (synonyms, other word orders, plural and singular), plus filler sentences
 * shared by every topic, so a keyword rule cannot cluster them and meaning has to.
 */
export const TOPICS: Record<string, { subjects: string[]; problems: string[]; details: string[] }> = {
  webhooks: {
    subjects: ['Webhook retries fail', 'Retries of webhooks', 'Webhook deliveries missing', 'Our webhook endpoint gets nothing', 'Webhook signature', 'Delivery of webhook events'],
    problems: [
      'The webhook retries fail every time our endpoint answers slowly.',
      'Retries of webhooks stopped after the first failed delivery.',
      'No webhook events reach our endpoint since yesterday.',
      'How do I verify the webhook signature header?',
      'Webhook deliveries are retried too often and our endpoint gets duplicates.',
      'Is there a way to replay a failed webhook delivery?',
      'Our endpoint returns 500 and the webhook is never retried.',
      'The webhook payload is missing the event type.',
    ],
    details: ['The endpoint is behind a load balancer.', 'We see the delivery attempts in the integration events log.', 'The signing secret was rotated last week.', 'It worked with the previous webhook URL.'],
  },
  billing: {
    subjects: ['Invoice question', 'Billing charged twice', 'Change plan', 'Refund request', 'VAT on invoices', 'Credit card declined'],
    problems: [
      'We were charged twice on our credit card this month.',
      'How can I download the invoices for last year?',
      'The invoice does not show our VAT number.',
      'Can we switch from the monthly plan to yearly billing?',
      'Our card was declined and the subscription shows past due.',
      'Why did the price of our plan go up on the last invoice?',
      'I need a refund for the seats we removed.',
      'Where do I change the billing email address for invoices?',
    ],
    details: ['Our finance team needs a PDF of each invoice.', 'We pay in euros.', 'The company address changed.', 'We have 25 seats on the business plan.'],
  },
  sso: {
    subjects: ['SAML login broken', 'Single sign-on setup', 'Okta SSO', 'Cannot log in with SSO', 'Azure AD SAML', 'SSO certificate expired'],
    problems: [
      'Users cannot log in with SAML since we rotated the certificate.',
      'How do I configure single sign-on with Okta?',
      'The SAML assertion is rejected with an invalid audience error.',
      'Our identity provider certificate expired and SSO login fails.',
      'Where do I find the ACS URL and entity ID for the SAML app?',
      'New members signing in through SSO do not get the default team.',
      'Azure AD single sign-on redirects back to the login page.',
      'Can we enforce SSO login for every member of the organization?',
    ],
    details: ['We use Okta as identity provider.', 'The metadata XML was uploaded again.', 'It affects every user of the domain.', 'The clock on our server is correct.'],
  },
  git: {
    subjects: ['Git sync stuck', 'GitHub import failed', 'Export to Git', 'Sync with repository', 'Branch not found', 'Git push rejected'],
    problems: [
      'The Git sync is stuck on cloning for hours.',
      'Importing our GitHub repository failed with an authentication error.',
      'How do I export the space to a branch of our repository?',
      'The sync with the repository does not pick up the SUMMARY.md changes.',
      'Git import says the branch ref was not found.',
      'Our push to the repository was rejected as non fast forward.',
      'Can Git sync use a subdirectory of the monorepo as the project directory?',
      'The commit message of the export is always the default one.',
    ],
    details: ['The repository is private on GitHub.', 'We use a personal access token.', 'The main branch is protected.', 'The .gitbook.yaml file sets the root.'],
  },
  pdf: {
    subjects: ['PDF export', 'Download as PDF', 'PDF missing images', 'Printing the docs', 'PDF fonts broken', 'Export change request PDF'],
    problems: [
      'The PDF export of the change request has no images.',
      'How do I download the whole space as a PDF?',
      'Japanese text in the exported PDF shows question marks.',
      'The PDF export cuts long code blocks at the page edge.',
      'Links in the exported PDF are not clickable.',
      'Can I print only one page and its subpages to PDF?',
      'The PDF download takes minutes for our large space.',
      'Tables in the PDF export lose their header row.',
    ],
    details: ['Our handbook has about 200 pages.', 'We share the PDF with auditors.', 'The pages use a lot of diagrams.', 'Some pages are in Russian and Greek.'],
  },
  search: {
    subjects: ['Search results wrong', 'Search not finding pages', 'Search index', 'Searching by keyword', 'Search is slow', 'Search across spaces'],
    problems: [
      'Search does not find pages we published yesterday.',
      'The search results rank an old page above the exact title match.',
      'How do I search across every space of the organization?',
      'Searching for a keyword with a hyphen returns nothing.',
      'Search is slow on our biggest space.',
      'Can readers search inside code blocks?',
      'The search index still shows a deleted page.',
      'Search excerpts highlight the wrong words.',
    ],
    details: ['Our space has thousands of pages.', 'The page title contains the keyword.', 'It happens on the published site too.', 'We search in English and German.'],
  },
  domains: {
    subjects: ['Custom domain', 'DNS CNAME', 'Domain not verified', 'SSL certificate for domain', 'Subdomain setup', 'Domain shows 404'],
    problems: [
      'Our custom domain shows a certificate error.',
      'Which CNAME record do I add to the DNS for docs.example.com?',
      'The domain has been pending verification for two days.',
      'How do I move the docs to a subdomain of our website?',
      'The custom domain answers 404 after we changed DNS.',
      'Can we use an apex domain without a CNAME?',
      'The SSL certificate for our domain was not renewed.',
      'Visitors on the old domain are not redirected to the new hostname.',
    ],
    details: ['DNS is hosted on Cloudflare.', 'The TTL of the record is one hour.', 'We removed the proxy on the record.', 'The site was published last month.'],
  },
  api: {
    subjects: ['API rate limit', 'API token', '429 Too Many Requests', 'REST API pagination', 'API authentication', 'API returns 401'],
    problems: [
      'Our script hits the API rate limit with 429 Too Many Requests.',
      'How do I create an API token for a service account?',
      'The REST API returns 401 even with a fresh token.',
      'Pagination of the API list endpoints skips items.',
      'What is the rate limit per token on the API?',
      'Can an API token be limited to one organization?',
      'The API client library throws on the next page cursor.',
      'API requests with our bearer token are rejected after rotation.',
    ],
    details: ['We call the API from CI.', 'The token was created by an admin.', 'We send about ten requests per second.', 'We use the official client library.'],
  },
  translations: {
    subjects: ['Translation run', 'Translate the docs to French', 'Translated space outdated', 'Machine translation quality', 'Language versions', 'Translation stuck pending'],
    problems: [
      'The translation run is stuck in pending.',
      'How do I translate our docs into French and German?',
      'The translated space does not include the pages we added.',
      'Machine translation changed our product names.',
      'Can the translation keep code blocks in English?',
      'The translated pages lose the bold formatting.',
      'How many words count toward our translation usage?',
      'Which languages can a translation target?',
    ],
    details: ['The source space is in English.', 'We wrote translation instructions.', 'We run it after each release.', 'Our glossary has product names.'],
  },
  merges: {
    subjects: ['Merge conflict', 'Change request cannot merge', 'Review changes', 'Merge overwrote edits', 'Outdated change request', 'Approve change request'],
    problems: [
      'Our change request cannot be merged because of a conflict.',
      'Merging the change request overwrote edits from another writer.',
      'How do I update an outdated change request with the main content?',
      'Reviewers cannot approve the change request.',
      'The merge conflict shows the same paragraph twice.',
      'Can we require a review before merging changes?',
      'The diff of the change request is empty but it says outdated.',
      'A merged change request reappeared as open.',
    ],
    details: ['Two writers edited the same page.', 'The change request is a week old.', 'We use merge rules.', 'The page was moved meanwhile.'],
  },
  permissions: {
    subjects: ['Member permissions', 'Team access', 'Invite users', 'Guest access', 'Role of a member', 'Remove member'],
    problems: [
      'A member with the editor role cannot edit the collection.',
      'How do I give a team read access to one space only?',
      'Invited users do not receive the invite email.',
      'Guests can see spaces they were not invited to.',
      'How do I change the role of a member to admin?',
      'Removing a member left their teams unchanged.',
      'Can a team have a different role on each collection?',
      'The member list does not show who invited whom.',
    ],
    details: ['We have about forty members.', 'Teams are synced from our identity provider.', 'The collection has custom permissions.', 'The invite link was sent by an admin.'],
  },
  sites: {
    subjects: ['Published site', 'Site visitor authentication', 'Site not updating', 'Share link', 'Site sections', 'Site customization'],
    problems: [
      'The published site does not show the latest content.',
      'How do I protect the site with visitor authentication?',
      'Share links of the site stopped working.',
      'Can the site have sections for each product?',
      'Visitors see a 404 on the site home page.',
      'The site theme colors are not applied.',
      'How do I unpublish a site for a while?',
      'The site navigation misses a space we added.',
    ],
    details: ['The site has three sections.', 'We use a JWT for visitor claims.', 'The site is public.', 'We customized the logo last week.'],
  },
};

/** Sentences any conversation may hold, whatever its topic. */
export const FILLERS = [
  'Thanks in advance for your help.', 'We are on the business plan.', 'This is urgent for our launch.',
  'Hello, hope you are well.', 'Let me know if you need more information.', 'I already checked the documentation.',
  'This started after the last release.', 'Our team is blocked on this.',
];
