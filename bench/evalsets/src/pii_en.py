# English PII evaluation records, written by hand.
# Markup: [[type|value]] entity (phone: [[phone/GB|...]] gives the region, default US),
#         {{kind|value}} hard negative, {{other=what it is|value}} for kind "other".
# Built and checked by build_pii_en_de.py.

RECORDS = [

# ---------------------------------------------------------------- chat (25)

("chat", r"""
hey [[name|Marcus]], it's [[name|Priya]] from the bouldering gym 👋 lost my phone so new number: [[phone/GB|07458 912306]]
text me when you're free for the {{place-name|Peak District}} trip? oh and the new flat is [[address|Flat 2, 19 Wilbraham Road, Manchester M14 7DA]] if you want to drop the rope off
"""),

("chat", r"""
lol UPS still says "label created" 🙄 {{tracking-number|1Z 8V4 W71 03 4478 2190}}
ordered it on {{date|3/11}}, was supposed to be here friday
"""),

("chat", r"""
[[name|Rose]] said she'd bring the cake. [[name|Hope]] can't make it, she's stuck at the clinic till 9
party's at [[address|56 Linden Ave, Oak Park, IL 60302]], tell ppl to park on the street
"""),

("chat", r"""
new build is up on staging: {{version|4.12.0.3}} 🎉 can someone smoke test checkout before the {{time|3pm}} standup?
"""),

("chat", r"""
ok here's the wallet for the cabin split: [[crypto-wallet|bc1qn94fnequ3a3m45w9z4e2yf0hqu54penu0h0rla]]
{{money|0.0042 BTC}} each. [[name|Danny]] already sent his, [[name|Liv]] says she'll pay in ETH to [[crypto-wallet|0x591421D2953147B31FDe2073B36D5a902F6360F4]] instead lol
"""),

("chat", r"""
for Dad's travel insurance form — DOB is [[date-of-birth|April 9, 1958]] and the policy # is {{account-number|HX-4470193}}
they also want his cell, it's [[phone|(614) 382-7710]] and home address [[address|3391 Kingsdale Ter, Upper Arlington, OH 43221]]
I paid the premium with the amex [[credit-card|3485 451435 53837]] so don't be surprised by the charge
"""),

("chat", r"""
{{handle|@channel}} heads up, someone pasted a live key in #general 😬
[[api-key|sk-proj-1U30fdmjQUlxKXJCldK4-ghDwJh2H23ymKNW6RUSS4LDZUD_OY8piTs1U6VOcjRSRAX5PAxET3BlbkFJdf936LiscF5lcJadugiAVK]]
revoking it now. [[name|Javier]] can you check whether anything got billed overnight?
also the grafana bookmark in the wiki has the admin pw baked in: [[url-credentials|https://admin:Gf4n4-Pr0d!@grafana.tallowmetrics.com/d/api-latency]] 🤦
"""),

("chat", r"""
babe can you do the grocery order, use my visa [[credit-card|4513 6583 5132 0228]] exp {{date|09/27}}
and DON'T save it in the app this time pls
"""),

("chat", r"""
Airbnb is at [[address|2218 NE Alberta St, Portland, OR 97211]] 🏡 lockbox code {{other=lockbox code|4471}}, check-in after {{time|4:00 PM}}
host is [[name|Sage]], her number's [[phone|503-894-2716]] if the code doesn't work
listing: [[url|https://www.airbnb.com/rooms/48219377]]
"""),

("chat", r"""
{{handle|@kiwi_codes}} did you push the hotfix? I only see {{hash|41c7f6bc616e99b3b8c8240dae6bf99efa841133}} on main, the key rotation commit isn't there
"""),

("chat", r"""
Hi Mrs. [[name|Okafor]], this is [[name|Bill]] from {{organisation|Greenline Plumbing}}. Running about 20 min late, traffic on I-95 is awful.
You can reach me at [[phone|+1 267 940 3318]] if anything changes
"""),

("chat", r"""
mortgage quote came back at {{percentage|6.125%}} lol. payment would be {{money|$2,418.77}}/mo. not happening
"""),

("chat", r"""
grandma's address for the xmas cards: [[address|47 Juniper Lane, Bangor, ME 04401]]
and Aunt [[name|Georgia]] moved, it's [[address|PO Box 2281, Sedona, AZ 86339]] now
"""),

("chat", r"""
the SNMP trap keeps coming from {{oid|1.3.6.1.4.1.9.9.41.2.0.1}} — that's the cisco syslog MIB right? ignoring it for now
"""),

("chat", r"""
checked the router, the weird device is [[ip-address|192.168.1.147]], MAC {{other=MAC address|3c:22:fb:91:0e:4d}}
[[name|Kev]] says it's his kindle 🙄 also someone's been hitting the NAS from [[ip-address|2a02:c7c:5d1e:4f00:a1b9:33f2:8e07:6c15]], blocked it
and the miner they dropped on it was paying out to [[crypto-wallet|LfjU5gjd1Pr52FZPNqNpvM3b9snm8q8yyD]] 😡
"""),

("chat", r"""
Happy bday [[name|Sunny]]!! 🎂 can't believe you're 30. Mom says you were born at 4am on [[date-of-birth|June 2nd, 1995]] and have kept everyone up ever since
sent a little bday btc to your address [[crypto-wallet|bc1qxa7ya3vj82a8krka6eg2npnrrukcfp0qlklsdd]], don't spend it all at once lol
"""),

("chat", r"""
standup: PR 4471 merged ✅ section {{section-number|3.2.1.4}} of the spec still open, p99 down {{percentage|14%}}. demo moved to {{date|Thu 5/22}}
"""),

("chat", r"""
Sent you the link for the wedding photos: [[url|https://photos.hollandfinchstudio.com/g/4Kx9TqL2]]
password is the wedding date 😉 [[name|Sam]] & [[name|Beatriz]] say hi!
oh and for the photographer split, [[name|Bea]] says send her half to [[iban|ES20 0049 2404 0158 0969 4478]]
"""),

("chat", r"""
thanks again for covering my shift!! venmo is {{handle|@hbanana-3}} but if it's easier just zelle to [[email|hwhitlock88@icloud.com]]
"""),

("chat", r"""
anyone know the ISBN for the 2nd edition? I have {{isbn|978-0-13-468599-1}} but the syllabus says the one with the blue cover
"""),

("chat", r"""
Your order will be delivered to [[address|330 E 38th St, Apt 12C, New York, NY 10016]] between {{time|2–4 PM}}.
Driver: [[name|Tyrell]]. He'll call from [[phone|(917) 604-2287]]. Track: [[url|https://trk.dashroute.com/d/8Hq2Lm]]. Reply STOP to opt out.
"""),

("chat", r"""
dinner at {{organisation|Jackson's}}? the one on {{place-name|Wilson Blvd}}, not the one in {{place-name|Arlington}} heights. {{time|7:30}}?
"""),

("chat", r"""
[[name|Leo]] can you add my brother to the allowlist? his IP is [[ip-address|73.158.204.19]], he's on comcast in Denver (zip {{postal-code-alone|80218}}).
and here's the db string he needs, DM only pls: [[url-credentials|postgres://nick_ro:Wv7pLq2zR9@analytics.ferncourt.dev:5432/events]]
"""),

("chat", r"""
for the W-9: SSN is [[ssn|478-80-0815]], legal name [[name|Marisol Echeverría-Ruiz]]
address [[address|918 W Cermak Rd, Unit 2, Chicago, IL 60608]]. lmk if you need anything else for the invoice
"""),

("chat", r"""
is the wifi password still the one on the fridge? also pls don't order from the {{organisation|Trader Joe's}} app again, it charged us {{money|$14.99}} delivery
"""),

# ---------------------------------------------------------------- email (25)

("email", r"""
Subject: Invoice {{invoice-number|INV-2024-0381}} — payment details

Hi [[name|Fiona]],
Please find attached the invoice for the April retainer ({{money|£3,150.00}}). Payment by bank transfer to:
Account name: [[name|Gareth Lloyd-Pryce]]
IBAN: [[iban|GB93 BARC 5877 8101 7450 67]]
Many thanks,
[[name|Gareth]]
[[address|11 Llandaff Road, Canton, Cardiff CF11 9NG]] · [[phone/GB|029 2089 1457]]
(EUR clients: [[iban|LU18 0014 4120 7588 7896]])
"""),

("email", r"""
Subject: Re: Q3 roadmap

Team — the revised timeline is in section {{section-number|4.2.1.3}} of the planning doc. Key dates: code freeze {{date|September 12}}, release {{version|v2.10.3.1}} on {{date|September 26}}.
Let's keep comments in the doc, not on email.
"""),

("email", r"""
Hi Dr. [[name|Nakamura]],

I'm writing to schedule a follow-up for my son, [[name|Ethan Brooks]] (DOB [[date-of-birth|11/03/2016]]). His last appointment was on {{date|02/14/2024}}.
The best number to reach me is [[phone|(503) 776-2148]], or email [[email|lauren.brooks.pdx@comcast.net]]. Our address is now [[address|7720 SE Harold St, Portland, OR 97206]].
For the insurance form: subscriber is me, SSN [[ssn|370-21-7878]]. Please keep the card ending in 8841 on file for the copay — actually, use the new one, [[credit-card|2223 0265 4813 3422]].

Thank you,
[[name|Lauren Brooks]]
"""),

("email", r"""
Your withdrawal of {{money|0.185 ETH}} to [[crypto-wallet|0xf953D91DfE26a6283e81c14ec8FE9884027C7E9E]] has been confirmed.
Transaction hash: {{hash|0x79cbea35628eb9f6c1a312652d3e41ce157b880f683ea58b4d507ebe8c3ea9e5}}
Withdrawal ID: [[uuid|2568c962-2fab-406c-90be-c5d5b5fca0f9]]
If you did not make this request, lock your account immediately at [[url|https://accounts.kestrelex.com/security/lock]].
"""),

("email", r"""
Hi all,

Please welcome our new hires this week:
– [[name|Aaliyah Jackson]] (Product Design) – [[email|aaliyah.jackson@brightwavelabs.io]]
– [[name|Mateusz Kowalczyk]] (Backend) – [[email|m.kowalczyk@brightwavelabs.io]]
– [[name|Grace Winter]] (People Ops)
Desk assignments are on floor 3; badges from reception.
— [[name|Tom]]
"""),

("email", r"""
Subject: Your order has shipped!

Order {{order-number|112-4839201-7745623}} is on its way.
Tracking: {{tracking-number|9400 1118 9922 3847 1029 56}} (USPS)
Estimated delivery: {{date|Mon, Jun 9}}
Paid with gift card {{card-like|6006 4913 2290 1746}} ({{money|$25.00}}) and {{money|$13.40}} on your card ending 0193.
"""),

("email", r"""
Hey [[name|Siobhán]],

Lovely to meet you at the conference in {{place-name|Galway}}! As promised: [[email|conor.mcgrath@tidewaterconsulting.ie]], mobile [[phone/IE|087 219 4483]].
Our office is at [[address|Unit 4, Docklands Innovation Park, 128 East Wall Road, Dublin 3, D03 K2R7]] if you're ever passing, and there's more on [[url|www.tidewaterconsulting.ie/workshops]].
For the workshop deposit our account is [[iban|IE13 IPBS 5022 6267 4327 94]].

Talk soon,
[[name|Conor]]
"""),

("email", r"""
Subject: Background check authorization

Hi Mr. [[name|Patel]],
To complete onboarding, please confirm the following through the secure portal by Friday:
Full legal name: [[name|Rohan Patel]]
SSN: [[ssn|533-90-2648]]
Date of birth: [[date-of-birth|07/22/1991]]
Current address: [[address|5510 Forest Hill Ave, Richmond, VA 23225]]
Please do not reply to this email with the information.
Best, [[name|Danielle]] (HR)
"""),

("email", r"""
Hi,
Quick reminder that the office is closed on {{date|July 4th}}. The maintenance window is {{time|22:00}}–{{time|02:00}} ET; expect VPN downtime.
The new firmware ({{version|7.1.4.22}}) fixes the certificate warning — the scanner was flagging policy OID {{oid|2.23.140.1.2.1}} on the old cert.
IT Helpdesk
"""),

("email", r"""
Subject: Wire instructions for closing — PLEASE VERIFY BY PHONE

Hi [[name|Kenji]] and [[name|Hana]],
Closing on [[address|1847 Cedar Crest Dr, Boise, ID 83702]] is set for {{date|Thursday 10/17}}. Please call our office at [[phone|208-345-9912]] to verify the escrow details before sending funds — we will never change wire instructions by email.
Regards,
[[name|Marjorie Bishop]]
Escrow Officer, {{organisation|Treasure Valley Title Co.}}
"""),

("email", r"""
Dear Customer,

We detected unusual activity on your account. Please confirm your card details within 24 hours:
[[url|http://secure-paypa1-verify.com/login?id=88213&ref=mail]]
Case ID: {{other=case reference|PP-C-44829-117}}
Failure to verify will result in permanent suspension.
"""),

("email", r"""
Subject: Re: your quote

Thanks for the quick turnaround. We're going with the {{product-code|DS-2CD2143G2-IS}} cameras (x6) at {{money|$189}} each plus install.
PO {{order-number|PO-77213-A}}. Ship to the warehouse as usual (the {{postal-code-alone|07094}} one, not Newark).
"""),

("email", r"""
Dear Ms [[name|Hartley-Moore]],

Thank you for applying for the Senior Analyst role. We'd like to invite you to interview on {{date|12 March}} at {{time|10:30}} at our London office, [[address|3rd Floor, 22 Bishopsgate, London EC2N 4BQ]].
Please ask for [[name|Oliver Pennington]] at reception, or call him on [[phone/GB|020 3481 7266]] if you are delayed. Directions: [[url|https://www.harcourtlowe.co.uk/contact]]

Kind regards,
Talent Team, {{organisation|Harcourt & Lowe LLP}}
"""),

("email", r"""
Subject: AWS keys in the repo

[[name|Ravi]] —
your commit this morning added these to {{file-name|config/dev.env}}:
AWS_ACCESS_KEY_ID=[[api-key|AKIAPVN45SZBVVZOGUBC]]
AWS_SECRET_ACCESS_KEY=[[api-key|W7l/1CfXakCHYW7VDbtE4Ymymlz57xM/AoYjhpkW]]
Same for the Jenkins job, the repo URL has your password in it: [[url-credentials|https://rsharma:Monsoon!2024@ci.northpointlogistics.com/job/deploy-api/]]
I've disabled the IAM user. Please rotate and use the vault from now on.
— [[name|Ines]]
"""),

("email", r"""
Reminder: the {{organisation|Ford Foundation}} grant report is due {{date|March 31}}. Budget variance is {{percentage|3.8%}} — please explain anything over {{money|$5,000}}.
Template attached ({{file-name|grant_report_FY24_v3.docx}}). Cite last year's report as ISBN {{isbn|978-1-86197-271-2}}.
"""),

("email", r"""
Hi [[name|Jordan]],

Your payment for StreamVault Premium didn't go through. The card on file, [[credit-card|4915 2432 4190 1943]], was declined by your bank.
Update your billing details here: [[url|https://billing.streamvault.tv/account/payment]]
"""),

("email", r"""
Hello,

I'm the new tenant at [[address|Flat 3, 71 Albert Road, Southsea PO5 2SG]] and I'm still getting post for a Mr [[name|Derek Vance]]. Could you update your records?
My details: [[name|Amara Osei]], [[email|amara.osei@outlook.com]], [[phone/GB|+44 7723 418 905]].
Thanks
"""),

("email", r"""
All,
The vendor confirmed the replacement part is {{product-code|A2442-LBD-01}}, warranty case {{other=case reference|CAS-00418822}}.
Rooftop unit is at {{coordinates|40.7433, -73.9911}}. Install Tuesday {{time|8:00}}.
"""),

("email", r"""
Subject: Donation receipt

Dear [[name|Penelope]],
Thank you for your gift of {{money|$250.00}} to {{organisation|Harbor Light Food Bank}} on {{date|11/28/2023}}. Your donor ID is {{account-number|HL-0093341}}.
We have your address as [[address|62 Quarry Rd, Montpelier, VT 05602]] — please let us know if this has changed. You can manage your giving at [[url|https://give.harborlightfb.org/account]].
(We now also accept bitcoin: [[crypto-wallet|32DniPyogVkamf8tAdqFBRZswdRWt8X2LG]].)
With gratitude,
[[name|Ruth Abernathy]], Development Director
"""),

("email", r"""
Hey [[name|Chris]], FYI the staging DB creds got posted in the vendor thread:
[[url-credentials|postgres://app_rw:Tq7!vmP2zLx9@staging-db.ridgeline-apps.com:5432/orders]]
and the SFTP drop too: [[url-credentials|sftp://vendor_upload:N3w-Harb0r-88@files.ridgeline-apps.com:2222/inbound]]
oh and the Twilio auth token is in there as well: [[api-key|8724486be495f9854e3a93fe044c067f]]
Can you rotate all three before their team logs in? Thanks — [[name|Mei]]
"""),

("email", r"""
Subject: RE: interest calc

Using A = P(1 + r/n)^(nt) with r = {{math|0.0475}} and n = 12 we get {{money|$11,962.43}} after 3 years.
The spreadsheet rounds at step {{section-number|2.3.1}}, which explains the {{money|$0.02}} gap.
"""),

("email", r"""
Good morning,
Please update the direct deposit for [[name|Antoine Leblanc]] (employee ID {{account-number|E-20817}}). New account with Bank of Ireland: [[iban|IE51 BOFI 3090 1334 9723 18]].
His old account [[iban|FR29 3000 3398 9389 2646 4557 781]] should be closed off after the {{date|15 May}} payroll.
Same change for [[name|Fenella Marsh-Dunne]]: new IBAN [[iban|GB57 MONZ 9928 8987 3969 87]].
Thanks, [[name|Niamh]]
"""),

("email", r"""
Hi [[name|Walter]],

Following our call: we can't accept card numbers by email, so I've deleted the message containing [[credit-card|5135 0481 6974 0426]].
Please enter it yourself at [[url|https://pay.alderbrookdental.com]] or call the front desk at [[phone|+1 (919) 442-6038]]. We're at [[address|2114 Ridge Rd, Suite 120, Raleigh, NC 27607]] if you'd rather pay in person.

Best,
[[name|Kimberly]]
"""),

("email", r"""
Hi team — reminder that the vendor portal moved. Please don't paste screenshots that show our customer number {{account-number|ACCT-7781-0042-19}} or the dummy card {{card-like|4544 3902 3731 6602}} into tickets, it trips the fraud filter.
Also: the IBAN on the old supplier form ({{iban-like|GB89 BARC 8544 6736 2545 97}}) has a typo and fails validation — use the one in the vendor master.
Questions to IT.
"""),

("email", r"""
Subject: Subject access request

To whom it may concern,
Under Article 15 UK GDPR I request a copy of all personal data you hold about me. My customer reference is {{account-number|CR-55120387}}.
Identifying details: [[name|Hyacinth Bloom-Adeyemi]], born [[date-of-birth|23 October 1979]], [[address|14 Mulberry Close, Harrogate HG2 8QT]].
Please reply within one month to [[email|hyacinth.bloom@btinternet.com]].
"""),

# ---------------------------------------------------------------- ticket (25)

("ticket", r"""
Ticket #48213 — Can't log in after password reset
Customer: [[name|Valentina Russo]] ([[email|vrusso.design@gmail.com]])
"Reset my password yesterday and now it says account locked. Tried from home ([[ip-address|71.204.19.88]]) and from my phone. Client presentation at 2, please help!!"
Session ID from the error page: [[uuid|ec77c2d0-ee6b-4bcc-8a95-00cebe3906a0]]
"""),

("ticket", r"""
Subject: Charged twice for order {{order-number|W4471923018}}
Hi, I see two charges of {{money|$84.16}} on my Mastercard [[credit-card|5383 8915 7703 7979]] for the same order. Please refund one.
Also my billing address changed to [[address|2630 E Indian School Rd, Phoenix, AZ 85016]]. If it's easier, put the refund on my other card [[credit-card|2720 9555 9056 1643]], I'm cancelling the Mastercard.
— [[name|Brandon Hale]], [[phone|(480) 615-2290]]
"""),

("ticket", r"""
Priority: High | Component: payments-gateway {{version|3.4.12}}
Nightly reconciliation failed with "checksum mismatch" for batch {{digit-run|20240611-000482}}.
Expected {{hash|d024070c37638318971a4e47d2d85433}}, got {{hash|d2a2a131684a0417f7bdb968109bed7a}}. No customer impact yet.
"""),

("ticket", r"""
Hi support, please change the delivery address on my subscription to [[address|7 Hawthorn Crescent, Leeds LS6 4JX]] — I moved last week.
Old address was [[address|221 Otley Road, Leeds LS16 5LB]]. Please also swap the card to [[credit-card|5573 8108 2471 3331]], or take it by direct debit from [[iban|GB67 HBUK 7519 3465 8847 54]] if you offer that.
Thanks, [[name|Imogen Fairweather]]
"""),

("ticket", r"""
Issue: ID verification stuck in "pending" for 3 days
User ID: [[uuid|856b7295-4f31-4630-af29-8e28ea823e56]]
Name on ID: [[name|Oluwaseun Adeyemi]], DOB [[date-of-birth|1988-05-17]], SSN entered [[ssn|359-85-3110]]
Address on ID: [[address|1250 Bedford Ave, Apt 6D, Brooklyn, NY 11216]]
Session: [[uuid|37650870-1dd0-46ce-8ea6-c6a01e19e8f0]], uploaded from [[ip-address|102.89.34.211]]
Raised by: [[name|Carla]] (Trust & Safety)
"""),

("ticket", r"""
App crashes on launch on iOS {{version|17.4.1}}, build {{version|5.18.0.2241}}. Crash log attached ({{file-name|crash_0603@2x.ips}}).
Steps: open app → tap Wallet → crash. Happens on iPhone 12 and 13.
"""),

("ticket", r"""
Subject: Withdrawal sent to wrong wallet??
I requested a withdrawal to my Ledger, [[crypto-wallet|bc1q2gtn9qaadz2d0au0zz5hgtvqc8rs4nk4053pks]], but the confirmation shows [[crypto-wallet|1F6iZcHUMr9EQZZ66Yi2rcEEgMr8yPMofj]] which is NOT mine. Freeze it please! ([[url|https://mempool.space/tx/8e1f9ac2d3b74c60a1b5f0e2d9c84a7b3e6f1d20c5a98b4e7f3d2c1b0a9e8f7d]] — withdrawal [[uuid|8e809ad3-585d-4421-92c5-7b94d1a90fdb]])
If you can't reverse it just wire the equivalent to my [[iban|PL34 4379 7432 1541 9585 3028 4782]].
Account email [[email|d.volkov.trades@protonmail.com]]
— [[name|Dmitri]]
"""),

("ticket", r"""
Hi, my son [[name|Lucas]] (the account holder) is under 13 — DOB [[date-of-birth|14 February 2013]] — and he made purchases with my card without permission.
Card: [[credit-card|4618 6343 2957 4539]]. Please refund and restrict the account.
Regards, [[name|Helen Marsh]]
"""),

("ticket", r"""
Our alert for billing-eu fires every night at {{time|03:15}} UTC. Threshold is {{math|1e-3}} errors/s.
Config in {{file-name|alerts/billing.yaml}}, rule {{section-number|2.4.1.7}}. Can someone tune it?
"""),

("ticket", r"""
Ticket: API returns 401 with a valid key
Reporter: [[name|Hunter Cole]] <[[email|hunter@colestack.dev]]>
"Using this key: [[api-key|sk-ant-api03-2w-brgH_DKBwfYNVr68k11_nceA8RbE2FsIHMK8CBd5azFxr1xIKUPhH690rlx4DsOE2tSPXhHAr3nnmrAfMU6-ps7QkJAA]]
works with curl from my laptop ([[ip-address|98.207.41.166]]) but not from our server ([[ip-address|34.201.88.12]]). Request id [[uuid|adf6b499-bbfd-4bc4-86b1-974b461c4b8b]]."
Billing address on the account: [[address|500 Yale Ave N, Seattle, WA 98109]].
Agent note: asked customer to revoke the key, it's in a ticket now.
"""),

("ticket", r"""
Order {{order-number|100384772910}} arrived damaged. The courier label says "Tel:" followed by {{tracking-number|00340434187260019381}} — is that the number I should call? Nobody answers.
"""),

("ticket", r"""
Payroll portal — W-2 shows the wrong SSN.
It has [[ssn|899-47-6879]] but mine is [[ssn|538-82-4011]]. Employee: [[name|Terrence Odom]], dept 14.
Mailing address on the W-2 is right: [[address|4410 Kessler Blvd N Dr, Indianapolis, IN 46228]].
"""),

("ticket", r"""
Hi, I'd like to close my account and have the balance transferred to my Irish account [[iban|IE21 AIBK 4090 6102 0814 66]], name [[name|Saoirse Breathnach]].
(Not {{iban-like|IE43 AIBK 4090 6102 0814 66}} — that was a typo in my first email.)
Phone [[phone/IE|+353 1 668 2207]] if you need to verify, I'm in from {{time|9}} to {{time|5}}. DOB for security is [[date-of-birth|12/04/1990]], address [[address|22 Griffith Avenue, Drumcondra, Dublin 9, D09 X8K4]].
"""),

("ticket", r"""
Can't install the printer driver. Model {{product-code|HL-L2350DW}}, S/N {{digit-run|0479 2281 3310}}, driver {{version|4.0.0.12}}.
Windows says the package is unsigned.
"""),

("ticket", r"""
Customer called re: suspicious login from [[ip-address|2a02:8109:9c40:1b00:5d2f:e0a1:7c3b:19e4]] (Germany); customer is in Ohio.
Reset password, enabled 2FA. Verified with last four of SSN and DOB [[date-of-birth|3/9/67]]. (Customer read out his full SSN, [[ssn|554-80-0499]], even though I only asked for the last four.)
Name: [[name|Earl Whitcombe]]. Callback [[phone|440-871-3306]].
"""),

("ticket", r"""
Rental damage claim {{other=claim reference|RC-7788-2024}}
Renter: [[name|Sophie van der Linden]], [[phone|+31 6 48219307]], [[email|sophie.vdlinden@ziggo.nl]]
Pickup: [[address|6055 W Century Blvd, Los Angeles, CA 90045]]
Driver DOB: [[date-of-birth|21-08-1989]]
Card on file: [[credit-card|3706 823205 04456]] — estimate {{money|$1,240}}; refund the deposit to [[iban|NL17 RABO 8094 2204 27]]
"""),

("ticket", r"""
Password reset mails aren't arriving for users at {{organisation|St. Mary's Hospital}}. SPF ok, DKIM selector s1, cert EKU {{oid|1.3.6.1.5.5.7.3.1}} present.
Remote server answers {{other=SMTP status code|4.7.1}} and defers. Started after the {{version|10.0.17763.5329}} patch.
"""),

("ticket", r"""
Hi, I'm locked out of the admin panel at [[url|https://admin.pinecrestfarms.net/login]]. My colleague [[name|Abdul]] said you could reset it.
Account ID [[uuid|d9619643-65e1-483e-ac9e-742fde509538]]. We pay via SEPA from [[iban|NL42 RABO 4961 0280 21]] if that helps you find us.
Our nightly export still runs against [[url-credentials|https://sync:R8v!qL2mTz@admin.pinecrestfarms.net/api/export]] — will that break too?
"""),

("ticket", r"""
New device enrollment
Employee: [[name|Ngozi Okafor-Bello]]
Asset tag: {{product-code|LT-2291-MBP}}
Ship to: [[address|4419 Avondale Ave, Apt 207, Dallas, TX 75219]]
Mobile: [[phone|214.887.3061]]
Device ID: [[uuid|bf2f464f-b672-432d-9ac6-07d9d03e5fcb]]
"""),

("ticket", r"""
Sandbox checkout rejects the test card {{example-key|4242 4242 4242 4242}} with "invalid_number".
Publishable key in the widget is {{example-key|pk_test_YOUR_KEY_HERE}}. Worked yesterday. The deliberately-invalid test number {{card-like|4724 2655 0387 0825}} still gets rejected, as it should.
"""),

("ticket", r"""
Please update the billing contact for account {{account-number|ACC-004417-US}} from [[email|billing@northfieldcabinetry.com]] to [[email|ap@northfieldcabinetry.com]].
Remit-to address stays [[address|1180 Industrial Pkwy, Northfield, MN 55057]]. From next month please charge the new corporate card [[credit-card|5299 1237 0672 4605]].
Requested by [[name|Greg Hollister]], CFO.
"""),

("ticket", r"""
VPN fails from the {{place-name|Paris}} office ({{postal-code-alone|75008}}) since the upgrade to {{version|10.2.0.1}}. Error {{other=Windows error code|0x80072EFD}}.
Other sites fine.
"""),

("ticket", r"""
Suspected account takeover. Payout wallet changed to [[crypto-wallet|0x66715176e4D0CAfBe291BDd3e5381dC21Aaf6571]] from [[ip-address|185.220.101.47]] (Tor exit).
Previous wallet: [[crypto-wallet|3DADsLFrMTkvYgZRQz6bQ83aeS4nFgfA3S]]. A second payout went to [[crypto-wallet|DJjN8f5Kr2DE4VqFcJveKiov9skYe6DuGZ]].
Owner: [[name|Camille Fontaine-Reyes]], account [[uuid|7349ba7e-cb77-4145-ab98-4377aced4bf5]], last login [[ip-address|24.48.117.203]].
"""),

("ticket", r"""
Hi, could you resend invoice {{invoice-number|INV-88213}} to my new address: [[address|1120 Harbour View Rd, North Vancouver, BC V7G 1A3]], Canada.
I paid with [[credit-card|4577 5199 6536 6291]] if you need to look it up. Phone [[phone/CA|604-929-4418]]. — [[name|Parveen Gill]]
"""),

("ticket", r"""
Refund could not be sent to the IBAN given ({{iban-like|GB83 BARC 6316 5823 9039 01}}, check digits wrong).
Refund processed: {{money|€45.90}} to the original payment method instead. Reference {{other=refund reference|RF-2024-06-0093}}. Allow 5–10 business days. Closing.
"""),

# ---------------------------------------------------------------- log / config (20)

("log", r"""
# .env.production
DATABASE_URL=[[url-credentials|postgresql://orders_svc:hR4q9Lm!x2Kd@db-prod-1.harborline.io:5432/orders]]
REDIS_URL=[[url-credentials|redis://:Zk83vQp1LmN7@cache.harborline.io:6379/0]]
STRIPE_SECRET_KEY=[[api-key|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]]
STRIPE_WEBHOOK_SECRET=[[api-key|whsec_TlBghIzugCVXOeQqbCqU5kQvDiNR4VVV]]
SENDGRID_API_KEY=[[api-key|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]]
APP_BASE_URL=[[url|https://app.harborline.io]]
"""),

("log", r"""
[[ip-address|81.142.17.203]] - - [12/Mar/2024:09:14:22 +0000] "GET /api/v2/orders/{{order-number|100482231977}} HTTP/1.1" 200 1843 "[[url|https://shop.copperkettle.co.uk/basket]]" "Mozilla/5.0 Chrome/{{version|122.0.6261.128}} Safari/537.36"
[[ip-address|2600:1700:3ec1:88f0::2b]] - - [12/Mar/2024:09:14:25 +0000] "POST /login HTTP/1.1" 302 0 "-" "okhttp/4.12.0"
[[ip-address|66.249.66.14]] - - [12/Mar/2024:09:14:31 +0000] "GET /robots.txt HTTP/1.1" 200 68 "-" "Googlebot/2.1"
[[ip-address|92.40.191.7]] - - [12/Mar/2024:09:14:40 +0000] "GET /api/v2/users/[[uuid|a057c871-74a8-43ac-8abd-d1761762e556]]/cards?number=[[credit-card|6537 5403 2031 8268]] HTTP/1.1" 400 91 "-" "curl/8.4.0"
[[ip-address|10.3.0.12]] - - [12/Mar/2024:09:14:41 +0000] "GET [[url-credentials|http://scanner:Ricoh2023!@10.3.8.40/scan/upload]] HTTP/1.1" 200 0 "-" "Squid/5.7"
"""),

("log", r"""
2024-05-08T14:22:07.391Z INFO  checkout user_id=[[uuid|c403e579-0af9-48b1-bf01-022634e41136]] email=[[email|kwame.mensah@yahoo.com]] amount={{money|129.00}} currency=USD
2024-05-08T14:22:07.402Z DEBUG payment  card=[[credit-card|4487963170279767]] exp=11/26 cvv=*** zip={{postal-code-alone|10027}}
2024-05-08T14:22:07.958Z DEBUG payment  card=[[credit-card|6011920287926334]] exp=02/25 cvv=*** zip={{postal-code-alone|60614}}
2024-05-08T14:22:07.960Z DEBUG payment  card=[[credit-card|3530394033249707]] exp=07/27 cvv=*** zip={{postal-code-alone|94110}}
2024-05-08T14:22:07.961Z DEBUG payment  card=[[credit-card|36811534817679]] exp=01/26 cvv=*** cache=[[url-credentials|redis://default:pQ7vXe2kLw9s@pay-cache.meadowlarkgoods.com:6380]]
2024-05-08T14:22:07.990Z DEBUG payment  method=sepa_debit iban=[[iban|DE13500105178443702909]] mandate={{other=SEPA mandate reference|MDL-2024-000871}}
2024-05-08T14:22:08.017Z WARN  payment  retrying charge attempt=2 latency_ms={{digit-run|1873}} req=[[uuid|0fa77f84-319b-4faf-b765-b99b360d623f]]
2024-05-08T14:22:08.530Z INFO  checkout redirect [[url|https://checkout.meadowlarkgoods.com/thank-you?o=77120]]
"""),

("log", r"""
# /etc/snmp/snmpd.conf
agentAddress udp:161
view   systemonly  included   {{oid|.1.3.6.1.2.1.1}}
view   systemonly  included   {{oid|.1.3.6.1.2.1.25.1}}
extend diskio   /usr/local/bin/diskio.sh   # exposed under {{oid|1.3.6.1.4.1.8072.1.3.2}}
sysLocation    "DC2 rack 14, row C"
"""),

("log", r"""
May 14 03:12:44 bastion-01 sshd[28811]: Failed password for invalid user admin from [[ip-address|45.155.205.233]] port 51122 ssh2
May 14 03:12:47 bastion-01 sshd[28811]: Failed password for invalid user oracle from [[ip-address|45.155.205.233]] port 51190 ssh2
May 14 03:13:02 bastion-01 sshd[28840]: Accepted publickey for deploy from [[ip-address|10.40.2.15]] port 40322 ssh2: ED25519 SHA256:{{hash|3yH7KqW9oLmX2e1fPzR4tBvN8cJ6aU0sD5gQiY7wEkM}}
May 14 03:15:10 bastion-01 sshd[28902]: Accepted password for {{handle|mwalsh}} from [[ip-address|172.16.30.44]] port 53810 ssh2
"""),

("log", r"""
[INFO] Building tripwire-agent {{version|2.4.0.17}}
[INFO] Verifying artifact checksum sha256={{hash|fa247680850912591b492946ed972e458a1659f61a87eb308c4501e4c4f6434e}}
[WARN] Deprecated API used in {{file-name|src/main/java/io/agent/Boot.java}}
[INFO] BUILD SUCCESS — Total time: {{time|03:41}} min, finished at {{date|2024-06-19}}T{{time|11:02:57}}+02:00
"""),

("log", r"""
apiVersion: v1
kind: Secret
metadata:
  name: payments-api
  namespace: prod
stringData:
  GITHUB_TOKEN: [[api-key|ghp_E7GBFQLigDgy2WSbwUn8SmoCuEAtevIgseOS]]
  SLACK_BOT_TOKEN: [[api-key|xoxb-166796293153-3831835645727-jSko56I3uTKAFSFJSegTENwU]]
  AMQP_URL: [[url-credentials|amqp://payments:Vb93kfQ2wLp@rabbit.payments.svc.cluster.local:5672/%2F]]
  DATABASE_URL: [[url-credentials|postgres://payments_rw:3mQ!zT8vWc@pg-primary.payments-db.net:5432/payments]]
  HF_TOKEN: [[api-key|hf_z9LQCHIU2bES95iuPuVsmO48iLC32wbhgM]]
  OWNER_ID: [[uuid|6027c6fa-c430-41ac-a37c-597e072e5039]]
"""),

("log", r"""
# crontab -l (backup host)
{{other=cron schedule|15 3 * * 1-5}} /opt/backup/run.sh --keep 14 >> /var/log/backup.log 2>&1
{{other=cron schedule|0 */6 * * *}}  /usr/bin/certbot renew --quiet
# last full backup: {{date|2024-06-02}} {{time|03:15:07}}, {{digit-run|48213977}} files, {{money|$0.00}} egress
"""),

("log", r"""
Jun  3 10:41:12 mx1 postfix/smtp[9921]: 4F2A81C0D3: to=<[[email|r.castellanos@meridianfreight.com]]>, relay=mx.meridianfreight.com[[[ip-address|52.101.73.14]]]:25, delay=1.2, dsn={{other=SMTP status code|2.0.0}}, status=sent (250 OK)
Jun  3 10:41:15 mx1 postfix/smtp[9922]: 7B11C2E0F1: to=<[[email|ines.gallagher@fastmail.com]]>, relay=in1-smtp.messagingengine.com[[[ip-address|103.168.172.218]]]:25, dsn=5.1.1, status=bounced (user unknown)
Jun  3 10:41:19 mx1 postfix/qmgr[1204]: 9C03D4A1B2: from=<[[email|newsletter@bayviewrowing.org]]>, size=48211, nrcpt=312 (queue active)
"""),

("log", r"""
services:
  api:
    image: ledger-api:{{version|1.19.4}}
    environment:
      MONGO_URI: [[url-credentials|mongodb+srv://ledger_app:u8Rz2PqW5tKc@cluster0.x7kqp.mongodb.net/ledger?retryWrites=true&w=majority]]
      OPENAI_API_KEY: [[api-key|sk-proj-Jz2SlObzDMciNRXMA0QK-yAcm3WOEmJcdFbC5i08OAfaLg0_zNPkAC1F0dzo3pb5Y0F6GBt7T3BlbkFJuZ2w4DiVCvfSRSG14DBzVw]]
      GOOGLE_MAPS_KEY: [[api-key|AIzaSypUD5WMggmoCPSIXlcF6jsYg-QQsBirJKn]]
      SMTP_URL: [[url-credentials|smtp://postmaster:fV9x!2qLmRt@smtp.mailgrove.net:587]]
      PAYOUT_ADDRESS: [[crypto-wallet|0x5b235346fC5d34F50449f4b5980D4CFB2728d2D8]]
      INSTANCE_ID: [[uuid|1f124880-d5bd-4cba-a383-3c3ad1bd6b84]]
"""),

("log", r"""
2024-08-14 02:00:01 metrics  host=web-03 cpu={{percentage|71.4%}} mem={{percentage|58%}} load={{math|3.14}} uptime={{digit-run|8842211}}s ifInOctets({{oid|1.3.6.1.2.1.2.2.1.10.3}})={{digit-run|982114420}}
2024-08-14 02:00:01 geoip    db={{file-name|GeoLite2-City_20240813.mmdb}} build {{version|2.0.6.1}} lookups=102884
2024-08-14 02:00:02 geoip    fallback center {{coordinates|39.8283, -98.5795}}
"""),

("log", r"""
2024-06-11 08:02:19,331 DEBUG http.client send: b'GET /v1/accounts/me HTTP/1.1\r\nHost: api.quillpay.com\r\nAuthorization: Bearer [[api-key|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0NWM0NGNmYS1kZGUwLTQ0NGQtYTE5Yi1hNTEyMmJiNTg1ZTciLCJpYXQiOjE3NzA1MTE3MzAsImV4cCI6MTc3MDUxNTMzMCwic2NvcGUiOiJyZWFkIHdyaXRlIn0.G230kbqNBTS7KoyrR8yXCQH2kKkv2kaKN8mZogopZuI]]\r\n'
2024-06-11 08:02:19,512 DEBUG http.client reply: 'HTTP/1.1 200 OK' request-id=[[uuid|23693809-ec2a-42bc-9abd-3633a6a4bf87]]
2024-06-11 08:02:19,514 DEBUG client   account owner=[[email|t.nguyen@quillpay.com]] ssn=[[ssn|705-86-6535]] dob=[[date-of-birth|1979-12-03]]
2024-06-11 08:02:19,515 DEBUG client   payout_iban=[[iban|GB45MIDL00314783301973]] addr="[[address|18 Chalk Farm Road, London NW1 8AG]]"
2024-06-11 08:02:19,620 DEBUG http.client send: b'GET [[url|https://api.quillpay.com/v1/accounts/me/statements?from=2024-05-01]]'
"""),

("log", r"""
# terraform.tfvars — DO NOT COMMIT
aws_access_key = "[[api-key|AKIAFLBNXFZB37MNSE6U]]"
aws_secret_key = "[[api-key|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]]"
allowed_cidrs  = ["[[ip-address|73.22.140.9]]/32", "[[ip-address|10.12.0.0]]/16"]
owner_email    = "[[email|devops@lakeshorecredit.org]]"
tenant_id      = "[[uuid|2729d717-6998-4ec5-8569-5d706aaaff90]]"
subscription_id = "[[uuid|c9add05c-3213-4c48-a1b0-b388210a0532]]"
gitlab_token   = "[[api-key|glpat-iK6VK8oQy3bY3HK2vb4u]]"
db_url         = "[[url-credentials|postgresql://tf_admin:Lk9#vR2mPq@lakeshore-pg.postgres.database.azure.com:5432/core]]"
ami_owner      = "{{account-number|137112412989}}"
"""),

("log", r"""
id,first_name,last_name,email,phone,dob,ssn,street,city,state,zip
10442,[[name|Marisa]],[[name|Delgado]],[[email|mdelgado77@hotmail.com]],[[phone|918-742-3310]],[[date-of-birth|1983-02-11]],[[ssn|119-50-6144]],[[address|1419 Birch St,Tulsa,OK,74104]]
10443,[[name|Kieran]],[[name|O'Shea]],[[email|kieranoshea@aol.com]],[[phone|(405) 228-9014]],[[date-of-birth|1990-09-30]],[[ssn|090-62-8332]],[[address|88 Sooner Rd Apt 4,Norman,OK,73071]]
10444,[[name|Yuki]],[[name|Tanabe]],[[email|ytanabe@me.com]],[[phone|+81 90-3318-4027]],[[date-of-birth|1996-07-08]],[[ssn|624-17-6293]],[[address|2300 Classen Blvd,Oklahoma City,OK,73106]]
"""),

("log", r"""
Exception in thread "main" java.lang.NullPointerException: Cannot invoke "Order.total()"
    at io.shop.billing.InvoiceService.render(InvoiceService.java:{{digit-run|214}})
    at io.shop.billing.InvoiceJob.run(InvoiceJob.java:88)
Caused by: invoice {{invoice-number|INV-2024-118374}} has no lines (order {{order-number|4410028861}})
JVM {{version|17.0.11+9}} on host 10-0-3-17 (build {{hash|e4ac727195b2b23e727fd9a89983503212931562}})
"""),

("log", r"""
[2024-04-02 16:40:11] AUDIT export by user_id=[[uuid|a9e0820f-9e5f-42ae-ba82-6090808fc2ba]] report=payroll_q1.csv rows=214
[2024-04-02 16:40:11] WARN  field 'ssn' written unmasked: employee 00417 ssn=[[ssn|417-12-8675]] name="[[name|Whitaker, Joan]]"
[2024-04-02 16:40:12] WARN  field 'ssn' written unmasked: employee 00418 ssn=[[ssn|120-54-9274]] name="[[name|Baptiste, Reginald]]"
[2024-04-02 16:40:12] WARN  field 'ssn' written unmasked: employee 00421 ssn=[[ssn|343290017]] name="[[name|Nguyen-Tran, Bao]]"
[2024-04-02 16:40:12] WARN  field 'ssn' written unmasked: employee 00422 ssn=[[ssn|676-44-0514]] name="[[name|Kaplan, Miriam]]"
"""),

("log", r"""
2024-07-19 22:10:03 withdraw.queued id=[[uuid|616f3ef1-63ab-4bb8-a5d7-60daf82d5c8d]] asset=LTC amount=12.5 to=[[crypto-wallet|LMRjrrHwXmQtUUcQ7GwacxBsoPhJ5QdyPC]]
2024-07-19 22:10:41 withdraw.queued id=[[uuid|db876419-35a9-4a8f-95fb-69f3ef647860]] asset=DOGE amount=4200 to=[[crypto-wallet|D9XqobDK5ZT19Mwph4eEvoTtkyc8BXgk6C]]
2024-07-19 22:10:58 withdraw.queued id=[[uuid|af065d03-d5b9-4aac-b7b9-c92e0b391050]] asset=BTC amount=0.031 to=[[crypto-wallet|bc1p2hqf7aeehv0adzmt76szmqjcntk69dajlj3uh4mp9rksys9syxnspm9u90]]
2024-07-19 22:10:59 withdraw.queued id=[[uuid|634b33c8-dbd5-45de-bfc7-967221850e5c]] asset=ETH amount=1.2 to=[[crypto-wallet|0xceA1E94F4cda7946925CD5837515b0d2148c4f41]]
2024-07-19 22:11:02 withdraw.sent   txid={{hash|d480394613440325e739a38b90407d8c845635a0b5c63dda9ed9c9a2b7dcf983}}
"""),

("log", r"""
# group_vars/all/vault.yml (decrypted copy, do not commit!)
deploy_user: deploy
deploy_private_key: |
  [[api-key|-----BEGIN EC PRIVATE KEY-----
  MHcCAQEEIJwXgb6HGon2YEJCu2tejoJ1x4V7qW+B0MytMr2KaO+6oAoGCCqGSM49
  AwEHoUQDQgAEU13eLa0ZcTG6+7jt3saIA4G/zDTjCp8kL0QiD25bOjlBw6uJVOWj
  HTfLTC4+2/Ov8C2DS6wm0PHQV+kmfNus5g==
  -----END EC PRIVATE KEY-----]]
backup_target: [[url-credentials|ftp://backup:Kj28-wqPz7Lm@ftp.osterbyhosting.net/nightly]]
mirror_target: [[url-credentials|sftp://mirror:Ha8vQ-2xPw@mirror.quarrylane.org/srv/backups]]
"""),

("log", r"""
2024-09-02 09:00:00 INFO  scheduler  job=report-weekly next_run={{date|2024-09-09}} {{time|09:00:00}}
2024-09-02 09:00:00 INFO  scheduler  job=purge-sessions last_run_ms={{digit-run|1725267600000}}
2024-09-02 09:00:01 DEBUG cfg        feature_flags version {{version|3.3.0.7}} loaded from {{file-name|flags@prod.json}}
2024-09-02 09:00:01 DEBUG cfg        api_key={{example-key|<YOUR_API_KEY>}} (placeholder, using env)
2024-09-02 09:00:01 DEBUG geo        default map center {{coordinates|51.5072,-0.1276}} zoom=11
"""),

("log", r"""
{
  "webhook_url": "[[url|https://hooks.cobaltridge.io/incoming/orders]]",
  "signing_secret": "[[api-key|whsec_TbzLUxPeyTaLu9Yfz57HQCihGb3WM1oy]]",
  "notify": ["[[email|ops-alerts@cobaltridge.io]]"],
  "client_id": "[[uuid|6425a4e7-c404-49b7-b686-46dbebaf45e7]]",
  "slack_token": "[[api-key|xoxb-392585836375-2555552865816-HXOsGYoA039ZhR6LycZWEPZr]]",
  "broker": "[[url-credentials|amqps://hooks:Cb7-rT4qWz9@b-4f1c.mq.eu-west-1.amazonaws.com:5671]]",
  "treasury_wallet": "[[crypto-wallet|0x153ccc849fF111B59522D46a17fBC6EAc0800E65]]",
  "allowed_ips": ["[[ip-address|3.121.8.44]]", "[[ip-address|2a05:d014:9f2:3e00::11]]"],
  "retry": {"max": 5, "backoff_ms": 250}
}
"""),

# ---------------------------------------------------------------- document (25)

("document", r"""
EMPLOYEE INFORMATION FORM
Name: [[name|Delphine Arceneaux]]        Preferred name: [[name|Del]]
SSN: [[ssn|562-77-7527]]        Date of Birth: [[date-of-birth|08/19/1986]]
Home address: [[address|2714 Magazine St, New Orleans, LA 70130]]
Phone: [[phone|(504) 891-6632]]    Emergency contact: [[name|Lionel Arceneaux]], [[phone|504-301-7745]]
Dependent: [[name|Remy Arceneaux]]    SSN: [[ssn|406-46-9245]]    DOB: [[date-of-birth|01/15/2015]]
Start date: {{date|09/03/2024}}
"""),

("document", r"""
{{section-number|§ 7.2.1}} Fees. Client shall pay the Fees set out in Schedule B within thirty (30) days of the invoice date.
Late amounts accrue interest at {{percentage|1.5%}} per month. {{section-number|7.2.2}} Expenses are reimbursed at cost plus {{percentage|10%}}.
"""),

("document", r"""
[[name|AMELIA ROSE THORNTON]]
[[address|Flat 9, 40 Marchmont Street, London WC1N 1AB]] · [[phone/GB|07812 604339]] · [[email|amelia.thornton@hey.com]]
[[url|https://www.linkedin.com/in/ameliathornton-ux]] · [[url|www.ameliathornton.design]]
EXPERIENCE
Senior UX Designer, {{organisation|Monzo}}, 2021–present
"""),

("document", r"""
INVOICE {{invoice-number|INV-0417}}                 Date: {{date|14/05/2024}}
From: {{organisation|Tayside Joinery Ltd}}, [[address|Unit 6, Riverside Trading Estate, Perth PH2 8DY]]
To: Mrs [[name|Eilidh Cameron]], [[address|3 Kinnoull Terrace, Perth PH2 7DJ]]
Bespoke oak bookcase .......... {{money|£1,480.00}}
Please pay to [[iban|GB42 LOYD 1831 3645 8103 73]] quoting the invoice number. Queries: [[name|Callum Fraser]], [[phone/GB|01738 622 418]]
"""),

("document", r"""
## Configuration
Set your key in the environment before running:
    export API_KEY={{example-key|sk-...your-key-here}}
Requires Python ≥ {{version|3.10}}. Run `make test`; coverage report lands in {{file-name|htmlcov/index.html}}.
"""),

("document", r"""
RESIDENTIAL LEASE (excerpt)
This Lease is made on {{date|June 1, 2024}} between Landlord [[name|Gustavo de la Fuente]] and Tenant(s) [[name|Bethany Cook]] and [[name|Malik Hassan]] for the premises at [[address|415 Spruce Street, Unit 2F, Philadelphia, PA 19106]].
Monthly rent: {{money|$1,950}}, due on the 1st. Security deposit: {{money|$3,900}}.
Landlord's address for notices: [[address|PO Box 58021, Philadelphia, PA 19102]].
"""),

("document", r"""
Spec sheet — part no. {{product-code|MX-4471-22-B}}
Firmware {{version|2.0.1.15}} · SNMP enterprise OID {{oid|1.3.6.1.4.1.52014}} · tolerance ±{{math|0.005}} mm · operating range −20 to 60 °C
Manual: ISBN {{isbn|978-1-4028-9462-6}}
"""),

("document", r"""
PATIENT INTAKE — {{organisation|Riverside Family Medicine}}
Patient: [[name|Tomás Ruiz-Valencia]]    DOB: [[date-of-birth|02/27/1974]]    Sex: M
Address: [[address|908 SW 8th St, Apt 3, Miami, FL 33130]]
Phone: [[phone|(305) 642-9017]]    Alt (Mexico): [[phone|+52 55 4120 8837]]
SSN (optional): [[ssn|502-05-7240]]    Card on file for copays: [[credit-card|4887 8610 1128 5157]]
Insurance member ID: {{account-number|XJH447190233}}    Portal: [[url|https://mychart.riversidefm.org]]
Primary care physician: Dr. [[name|Evelyn Sato]]
"""),

("document", r"""
Mr [[name|Chidi Okonkwo]]
[[address|9 Fernbank Drive, Bingley BD16 4JL]]

Dear Mr [[name|Okonkwo]],
Re: Your pension transfer ({{account-number|PEN-00328817}})
We have received your instruction to transfer your plan to {{organisation|Aviva}}. Please confirm the receiving account: [[iban|GB70 NWBK 2476 0308 7040 48]] (contributions were collected from [[iban|GB17 SRLG 2131 4360 5384 55]]).
Your date of birth on our records is [[date-of-birth|4 January 1961]]; if this is wrong, call us on [[phone/GB|0345 602 1883]].
"""),

("document", r"""
Question 3. (a) Show that the series converges to {{math|3.14159}} to five decimal places.
(b) Estimate the error when the tolerance is {{math|1e-9}}. Marks: 12. See also exercise {{section-number|4.1.2.3}}.
"""),

("document", r"""
Meeting notes — vendor review, {{date|Apr 18}}
Present: [[name|Harriet Young]], [[name|Dev Malhotra]], [[name|Chloe Fitzgerald-Baines]]
- [[name|Dev]] to send key rotation plan (old Stripe key [[api-key|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]] was pasted in chat — rotated since)
- [[name|Harriet]]: renew contract with {{organisation|Johnson Controls}} at {{money|$48k}}
- New office lease at [[address|1400 K Street NW, Suite 300, Washington, DC 20005]] signed
- Next review {{date|May 16}}
"""),

("document", r"""
## Support this project
If this tool saved you time, tips are appreciated:
- BTC: [[crypto-wallet|bc1qtsvhq4sgwj4hzgssvjvxkywruvv35e9zew0yt3]]
- ETH: [[crypto-wallet|0xeB702E56021001F4302874c8A6c5DEA20bC312ed]]
- LTC: [[crypto-wallet|ltc1q8vlvlle2xd3wtfakzf832ddgrsd5ddcm9xw754]]
- DOGE: [[crypto-wallet|D6hhuVvgLHqfGbEvK4JQdyrWXaQKqedsjt]]
Maintainer: [[name|Jonah Lindqvist]] ([[email|jonah@lindqvist.dev]]) · docs at [[url|https://lindqvist.dev/logslice/]]
"""),

("document", r"""
Invoice no. {{invoice-number|2024-11-00873}}    PO {{order-number|4500218834}}
Consulting services, October .......... {{money|$12,480.00}}
Remit to customer account {{account-number|00012-448712}} · payment terms net 30 · late fee {{percentage|2%}}
"""),

("document", r"""
FORM 1099-NEC (excerpt)
PAYER: {{organisation|Lumen Creek Media LLC}}, [[address|200 S Tryon St, Suite 1400, Charlotte, NC 28202]]
PAYER'S TIN: {{other=EIN (employer identification number)|56-2847193}}
RECIPIENT: [[name|Jasmine Whitfield]]
RECIPIENT'S TIN: [[ssn|061-83-0055]]
Street address: [[address|3307 Selwyn Ave, Charlotte, NC 28209]]
Box 1 Nonemployee compensation: {{money|$18,250.00}}
"""),

("document", r"""
CREDIT APPLICATION
Applicant: [[name|Devon Achterberg]]    Date of birth: [[date-of-birth|12/05/1993]]    SSN: [[ssn|006-30-0882]]
Co-applicant: [[name|Faith Achterberg]]    Date of birth: [[date-of-birth|03/30/1994]]    SSN: [[ssn|280-17-1941]]
Current address: [[address|1622 Pershing Blvd, Cheyenne, WY 82001]] (since 2023)
Previous address: [[address|PO Box 4471, Laramie, WY 82073]]
Employer: {{organisation|Mercy Health}}    Annual income: {{money|$72,400}}
"""),

("document", r"""
## {{version|v5.2.0}} — {{date|2024-08-01}}
- Fixed crash when loading {{file-name|avatar@3x.png}} on Retina displays
- Map no longer re-centres on {{coordinates|48.8584° N, 2.2945° E}} after a search
- Bumped OpenSSL to {{version|3.0.13}}
- New migration {{digit-run|20240731120455}} adds an index on orders.created_at
"""),

("document", r"""
Save-the-date mailing list (final)
1. Mr & Mrs [[name|Winston Carter]] — [[address|12 Lighthouse Way, Mystic, CT 06355]]
2. [[name|Ivy Nakashima]] & [[name|Rob Delacroix]] — [[address|88 Pearl St, Apt 5, Brooklyn, NY 11201]]
3. Aunt [[name|Patience]] — [[address|301 Church Hill Rd, Sandy Hook, CT 06482]]
4. The [[name|Oyelaran-Smiths]] — [[address|19 Rue Saint-Paul, 75004 Paris, France]]
"""),

("document", r"""
RECURRING PAYMENT AUTHORIZATION
Cardholder: [[name|Lorraine Fairbanks]]
Card number: [[credit-card|3435 848375 83623]] (Amex)    Exp: {{date|04/28}}
Billing address: [[address|77 Beacon St, Boston, MA 02108]]
Backup card: [[credit-card|6222 8040 2553 8418]] (Discover)
Amount: {{money|$65.00}} monthly, starting {{date|07/01/2024}}
"""),

("document", r"""
12.4 Neither party shall disclose the other's Confidential Information except as permitted under {{section-number|12.4.1}} to {{section-number|12.4.3}}.
12.5 This Agreement is governed by the laws of the {{place-name|State of Delaware}}, without regard to its conflict of laws rules.
"""),

("document", r"""
Sales team directory (internal)
Name | Role | Ext | Mobile
[[name|Will Forsythe]] | Head of Sales | {{digit-run|2210}} | [[phone|(646) 338-1290]]
[[name|Paige du Plessis]] | Account Exec | {{digit-run|2214}} | [[phone|(646) 772-0418]]
[[name|Kofi Asante]] | Sales Engineer (London) | {{digit-run|2231}} | [[phone|+44 7946 281553]]
"""),

("document", r"""
WIRE TRANSFER REQUEST
Beneficiary: {{organisation|Kessler Feinmechanik GmbH}}
Beneficiary address: [[address|Industriestraße 14, 73760 Ostfildern, Germany]]
IBAN: [[iban|DE06 3704 0044 8335 4894 09]]    BIC: {{other=BIC / SWIFT code|COBADEFFXXX}}
Debit account: [[iban|GB76 NAIA 9869 5777 1083 86]]
Amount: {{money|EUR 23,400.00}}    Reference: {{invoice-number|RE-2024-0712}}
Authorised by: [[name|Sheila von Bargen]], Controller
"""),

("document", r"""
## Quickstart (internal)
```
export DB_URL=[[url-credentials|mysql://root:Gr33nfield2023@10.0.8.21:3306/inventory]]
export CACHE_URL=[[url-credentials|memcached://svc:xP4wq9Tz@10.0.8.22:11211]]
export BROKER_URL=[[url-credentials|amqp://inv:Rb4-kT9wq@10.0.8.23:5672/inv]]
export NPM_TOKEN=[[api-key|npm_1HCk8f0IYMgWSNI1CgzCqXETZVlWcN34PPgi]]
./run.sh --seed
```
TODO before publishing: swap these for placeholders — [[name|Nate]]
"""),

("document", r"""
PACKING LIST — pallet 3/7
SSCC {{tracking-number|340123450000000472}} · HS code {{product-code|8471.30.0100}}
Gross {{digit-run|412.5}} kg · depot {{coordinates|33.7490° N, 84.3880° W}}
"""),

("document", r"""
SCHOLARSHIP APPLICATION — International Students
Applicant: [[name|Thandiwe Nkosi]]
Date of birth: [[date-of-birth|17 September 2002]]
Home address: [[address|14 Jan Smuts Avenue, Parktown, Johannesburg 2193, South Africa]]
Phone: [[phone|+27 82 447 1903]]    Email: [[email|thandi.nkosi02@mweb.co.za]]    Portfolio: [[url|https://thandinkosi.github.io/research]]
Application fee paid by card: [[credit-card|5241 4007 1081 8998]]
Stipend account (Triodos NL): [[iban|NL12 TRIO 0927 3040 11]]
Referee: Prof. [[name|Adebayo Coker]]
"""),

("document", r"""
Board minutes: motion carried 5–2. Budget of {{money|$214,000}} approved; reserve contribution {{percentage|12%}}.
Next meeting {{date|Oct 3}} at {{time|7 PM}} in the {{place-name|Lincoln Park}} community room.
"""),

]
