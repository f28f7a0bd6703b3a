# Hand-written French records for the PII evaluation set (markup: see build_pii_fr_es.py).
# Each entry: (genre, text). Values are fictional but valid; each is used once.
RECORDS = [
# ---------------------------------------------------------------- chat (25)
("chat", r"""
Chéri, pour la déclaration IRS il me faut les SSN. Le tien c'est bien ⟦ssn|260-32-3399⟧ ? Et celui de ⟦name|Noah⟧ je l'ai trouvé sur sa carte : ⟦ssn|612-09-0687⟧. Je remplis tout ce soir, la date limite c'est le ⟪date|15 avril⟫ 😩
"""),
("chat", r"""
[09:12] ⟦name|Théo Garnier⟧: qqn a le mdp de la base de préprod ? j'ai ça dans mes notes mais ça passe plus
[09:12] ⟦name|Théo Garnier⟧: ⟦url-credentials|postgres://app_rw:Vr4nd0m!Pr3p@10.20.3.14:5432/facturation⟧
[09:14] ⟦name|Nadia⟧: c'est l'ancien, le nouveau est dans le coffre, et stp supprime ce message 🙃
"""),
("chat", r"""
Coucou ! Je t'envoie mon adresse pour le colis : ⟦address|14 rue des Lilas, 35000 Rennes⟧. Le digicode c'est ⟪other:door-code|4B172⟫, 2e étage à gauche 😊
"""),
("chat", r"""
ok j'ai commandé les 3 cartouches, commande n° ⟪order-number|4051877321⟫, livraison prévue le ⟪date|12/03⟫, suivi ⟪tracking-number|6C04918273645⟫. Ça fait ⟪money|87,40 €⟫ en tout, je te fais un virement
"""),
("chat", r"""
Mon numéro a changé ! Nouveau : ⟦phone|07 58 12 93 46⟧ (l'ancien ne marche plus). Et pour le boulot c'est toujours le fixe ⟦phone|02 40 35 76 18⟧. Je suis à Bruxelles jusqu'en juin, pour le courrier : ⟦address|Chaussée de Wavre 214, 1050 Ixelles⟧ — ⟦name|Gaëlle⟧
"""),
("chat", r"""
@⟦name|Margaux Berger⟧ la clé OpenAI du projet est expirée, je viens d'en générer une nouvelle : ⟦api-key|sk-proj-rUuutknYD9OfVtNOOQfdpm1cwjYRmhyeSJmUkQXosIUjoWc3-bjezCd1WrPCzzkIcq3Xw_FHrxR0sNjN3Gdkpp72w1LoSD5hl4nH⟧
mets-la dans le .env de ton poste, PAS dans le repo stp
"""),
("chat", r"""
la réunion est décalée à ⟪time|16h⟫, salle ⟪other:room-number|B-204⟫ (cc @⟪handle|compta-team⟫). On parle du budget Q3 (+⟪percentage|12,5 %⟫ sur l'infra 😬)
"""),
("chat", r"""
Tu peux vérifier si le serveur répond ? moi j'ai un timeout sur ⟦ip-address|51.178.42.193⟧ depuis ce matin, le ping passe mais pas le ssh. Par contre depuis le bastion ⟦url-credentials|mysql://reporting:Lq7vR2xN@51.178.42.193:3306/stats⟧ répond nickel
"""),
("chat", r"""
Tu peux m'envoyer les ⟪money|50 USDT⟫ sur mon adresse ⟦crypto-wallet|0xE32492B6dC6402D7975319976C12cd40a942ef4F⟧ ? Réseau Ethereum hein, pas Tron, sinon c'est perdu. Merci ⟦name|Aurélie⟧ !
"""),
("chat", r"""
Le suivi du colis c'est ⟪tracking-number|6A18765432109⟫ sur le site de Colissimo, ils disent livré mais j'ai rien reçu…
"""),
("chat", r"""
Hello ! Pour la cagnotte du pot de départ de ⟦name|Bernard⟧, vous pouvez virer sur mon compte : ⟦iban|FR76 1751 5365 3309 0103 8102 695⟧ (⟦name|Sylvie Chevalier⟧). Merci à tous 🎉
"""),
("chat", r"""
t'as la version de l'appli qui plante ? moi c'est la ⟪version|4.12.0.3⟫ sur Android 14 (build ⟪hash|68983b9⟫), et ça crashe dès que j'ouvre l'onglet Paiements
"""),
("chat", r"""
⟦name|Julien⟧ tu peux m'envoyer le lien du drive ? — oui : ⟦url|https://drive.google.com/drive/folders/1hQm3ZxP0aVtLw8Kc2nR5sYbE7uJdF4oG⟧, c'est le dossier « Devis 2024 ». Et envoie ton RIB pour le remboursement des billets — ok : ⟦iban|FR76 3000 2632 9595 4390 6620 155⟧
"""),
("chat", r"""
Bon je te donne ma CB pour réserver le gîte, je suis sur la route : ⟦credit-card|4579 9912 8822 2576⟧, exp ⟪date|09/27⟫. Au nom de ⟦name|Océane Roux⟧. Supprime après stp !!
"""),
("chat", r"""
Petit rappel : le badge ne marche plus après ⟪time|20h00⟫ à partir de lundi. Pour les urgences appelez la sécurité au poste ⟪other:internal-extension|4417⟫.
"""),
("chat", r"""
[Slack] ⟦name|Lucas Mercier⟧: le webhook Slack de l'alerting c'est ⟦api-key|xoxb-817780461325-4890950766607-O06VuSN6adsyihSO4zltjIMD⟧ si tu veux tester
[Slack] ⟦name|Lucas Mercier⟧: et le token GitLab du runner : ⟦api-key|glpat-YC6kmMRRBdkIJRc1MPEq⟧ (cc @⟪handle|ops-astreinte⟫)
[Slack] ⟦name|Manon Fabre⟧: merci, j'ai pris le commit ⟪hash|83cbf43e066461e502588df39af3fdff418fd48c⟫ pour la clé du chart, c'est bon
"""),
("chat", r"""
on se retrouve au café en bas à ⟪time|12h15⟫ ? Celui au coin de ⟪place-name|place Saint-Michel⟫ (⟪coordinates|48.8530, 2.3440⟫ sur Maps), pas celui de la gare
"""),
("chat", r"""
Maman, je suis bien arrivée chez ⟦name|Hannah⟧ à Munich. Son adresse si besoin : ⟦address|Nymphenburger Str. 86, 80636 München⟧, son portable ⟦phone|+49 151 23456789⟧. Bisous
"""),
("chat", r"""
Pour l'inscription au club il me faut ta date de naissance et ton mail. — ⟦date-of-birth|17/08/2011⟧, et c'est ⟦email|lou.tanguy@laposte.net⟧ (c'est celui de mon père en fait)
"""),
("chat", r"""
quelqu'un a la réf de la pièce pour l'imprimante du 3e ? c'est ⟪product-code|CF259X⟫ je crois, le toner noir. Le fournisseur c'est ⟪organisation|Bruneau⟫
"""),
("chat", r"""
Je t'ai fait le virement de ⟪money|350 €⟫ pour la caution. Réf du virement : ⟪other:transfer-reference|VIR-SEPA-20240311-88213⟫. La première fois j'avais tapé ⟪iban-like|FR41 8438 1735 0219 7929 0796 454⟫ et la banque m'a dit « IBAN invalide », j'avais inversé deux chiffres. Dis-moi quand tu l'as reçu
"""),
("chat", r"""
⟦name|Erwan⟧: le wallet pour les dons de l'asso c'est ⟦crypto-wallet|bc1qsa3qj3u55d4cwy30je3utw3czdcc4vak3uq8t4⟧, je l'ai mis sur la page HelloAsso aussi
⟦name|Clémence⟧: top, et l'ancien ⟦crypto-wallet|1K8dcHuoce447uDEFnuFjLxyehMNprh36T⟧ on le garde ?
"""),
("chat", r"""
ptn le train est encore en retard, ⟪time|40 min⟫ annoncées. Je serai pas là avant ⟪time|19h⟫, commencez sans moi
"""),
("chat", r"""
Le nouveau stagiaire s'appelle ⟦name|Mehdi Bouzid⟧, il commence lundi. Son mail perso en attendant le compte : ⟦email|mehdi.bzd@free.fr⟧, son pseudo Slack @⟪handle|mbouzid⟫, et son profil : ⟦url|https://www.malt.fr/profile/mehdibouzid⟧
"""),
("chat", r"""
T'as vu le score du match hier ? 3-1, j'y croyais plus. Prochain match le ⟪date|samedi 18⟫ à ⟪time|21h⟫ au ⟪place-name|Vélodrome⟫
"""),
# ---------------------------------------------------------------- email (25)
("email", r"""
Objet : Changement de coordonnées bancaires

Bonjour,

Suite à notre changement de banque, merci de mettre à jour notre RIB pour les prochains règlements :
Titulaire : ⟪organisation|SARL Atelier Boulanger & Fils⟫
IBAN : ⟦iban|FR76 3000 3331 4268 1052 0266 718⟧
BIC : ⟪other:bic|SOGEFRPP⟫
L'ancien compte (⟪iban-like|FR92 4269 0278 1519 9348 6367 948⟫) sera clôturé fin ⟪date|avril⟫.

Cordialement,
⟦name|Pierre Boulanger⟧
⟦address|27, boulevard Voltaire 75011 Paris⟧ – ⟦phone|01 43 57 28 61⟧
"""),
("email", r"""
Bonjour Madame ⟦name|Lefort⟧,

Je vous confirme votre rendez-vous du ⟪date|jeudi 14 mars⟫ à ⟪time|10h45⟫ au cabinet. Merci d'apporter votre carte Vitale et votre dernière ordonnance.
En cas d'empêchement, prévenez-nous au moins 24 h à l'avance.

Le secrétariat
"""),
("email", r"""
De : ⟦name|Nathalie Rose⟧ <⟦email|nathalie.rose@orange.fr⟧>
À : ⟦email|contact@gite-les-tilleuls.fr⟧
Objet : Réservation du 3 au 10 août

Bonjour,
Nous souhaiterions réserver le gîte pour 4 adultes et 2 enfants du ⟪date|3 au 10 août⟫. Pouvez-vous me rappeler au ⟦phone|06 84 21 57 33⟧ en soirée ?
Notre adresse pour le contrat : ⟦address|8 bis avenue Foch, 54000 Nancy⟧. Pour l'acompte vous pouvez débiter ma carte ⟦credit-card|4586 0914 9194 3471⟧ (exp. ⟪date|05/26⟫).
Bien à vous,
⟦name|Nathalie⟧
"""),
("email", r"""
Bonjour à tous,

Petit rappel : la maintenance de la plateforme aura lieu ce ⟪date|samedi 23 novembre⟫ de ⟪time|22h⟫ à ⟪time|2h⟫. Pendant cette fenêtre, l'accès à l'intranet et au VPN sera coupé.
Merci d'enregistrer vos travaux en cours avant vendredi soir.

L'équipe Infrastructure
"""),
("email", r"""
Objet : Dossier d'inscription – ⟦name|Ethan Vasseur⟧

Madame, Monsieur,
Veuillez trouver ci-dessous les informations demandées pour l'inscription de mon fils en 6e :
Nom : ⟦name|VASSEUR⟧  Prénom : ⟦name|Ethan⟧
Né le : ⟦date-of-birth|2 février 2013⟧ à ⟪place-name|Amiens⟫
Adresse : ⟦address|3 impasse du Moulin, 80090 Amiens⟧
Téléphone du responsable légal : ⟦phone|03 22 47 81 09⟧
Je reste à votre disposition.
⟦name|Thomas Vasseur⟧
"""),
("email", r"""
Hi ⟦name|Florian⟧,

Following up on the onboarding of our new US hire: ⟦name|Jessica Brennan⟧ starts at the Boston office on the ⟪date|1st of April⟫. Her SSN for payroll setup is ⟦ssn|589-54-7792⟧ and her DOB ⟦date-of-birth|06/19/1994⟧. Her husband ⟦name|Carlos⟧ (SSN ⟦ssn|468-20-5350⟧, born ⟦date-of-birth|11/02/1991⟧) must be added to the health plan. Please forward to ADP, not to the whole HR list.

Merci,
⟦name|Romain Faure⟧ – RH Groupe
"""),
("email", r"""
Objet : Re: accès API partenaire

Bonjour ⟦name|Céline⟧,

Voici vos identifiants pour l'environnement de recette :
client_id : ⟦uuid|d7cce265-6694-41f7-9c14-18c4be2c2499⟧
client_secret : ⟦api-key|VOXq8AOUJl5TOct2gFyezNTrrXzEXc2oOB3skl4Z⟧
URL : ⟦url|https://recette-api.paiements-loiret.fr/v2/oauth/token⟧
La doc est sur ⟦url|https://developers.paiements-loiret.fr/docs/authentification#client-credentials⟧ (section ⟪section-number|3.2.1⟫).
Dépôt des fichiers de rapprochement : ⟦url-credentials|sftp://partenaire-042:wT6!kd93Ra@sftp.paiements-loiret.fr:2222/in⟧
Attention, ces accès expirent le ⟪date|30/06/2025⟫.

⟦name|Fabrice Lemoine⟧, intégration partenaires
⟦address|1 place du Martroi, 45000 Orléans⟧
"""),
("email", r"""
Bonjour,

Je n'ai toujours pas reçu ma commande ⟪order-number|FR-2291-7781-04⟫ passée le ⟪date|2 octobre⟫. Le suivi Chronopost (⟪tracking-number|XW482716395FR⟫) indique « en cours d'acheminement » depuis dix jours.
Pouvez-vous faire le nécessaire ou me rembourser les ⟪money|129,99 €⟫ ?

Merci d'avance.
"""),
("email", r"""
De : ⟦email|p.masson@cabinet-masson-avocats.fr⟧
Objet : Convocation – affaire ⟦name|Renard⟧ c/ SCI Les Glycines

Maître,
L'audience est fixée au ⟪date|17 juin 2024⟫ à ⟪time|9 h 30⟫ devant le tribunal judiciaire de ⟪place-name|Bordeaux⟫, 1re chambre civile. Mon client, M. ⟦name|Guillaume Renard⟧, demeurant ⟦address|9 quai des Chartrons, 33000 Bordeaux⟧, sera présent.
Vous trouverez les pièces sur notre espace : ⟦url|https://www.cabinet-masson-avocats.fr/espace-client/dossier/2024-0412⟧
Bien confraternellement,
⟦name|Pauline Masson⟧, avocate au barreau de Bordeaux
⟦phone|05 56 44 92 17⟧
"""),
("email", r"""
Objet : Votre facture ⟪invoice-number|FA-2024-00871⟫

Bonjour,
Veuillez trouver ci-joint la facture ⟪invoice-number|FA-2024-00871⟫ d'un montant de ⟪money|1 249,90 € TTC⟫, payable à ⟪other:payment-terms|30 jours fin de mois⟫.
N° client : ⟪account-number|CLI-0045872219⟫. Référence de paiement : ⟪card-like|4914 6401 4025 3431⟫.
Le service comptabilité
"""),
("email", r"""
Subject: W-9 for the consulting contract

Hello Mr. ⟦name|Hale⟧,
As requested, here are my details for the W-9 (I am a US citizen living in Lyon):
Name: ⟦name|Daniel Okafor⟧
SSN: ⟦ssn|457-82-0840⟧
Address: ⟦address|112 cours Lafayette, 69003 Lyon, France⟧
Phone: ⟦phone|+33 6 47 19 83 52⟧
For the joint return, my wife ⟦name|Grace⟧'s SSN is ⟦ssn|734-67-6512⟧.
Best regards,
⟦name|Daniel⟧
"""),
("email", r"""
Bonjour ⟦name|Agnès⟧,

Comme convenu au téléphone, je vous transmets l'adresse de livraison pour le mobilier :
⟦name|Jérôme Bonnet⟧
Résidence Les Pins, bât. B
⟦address|5 allée des Mimosas, 83400 Hyères⟧
Accès par le portail côté parking, sonner à ⟦name|BONNET⟧. Mon portable : ⟦phone|06 12 58 74 30⟧. Pour le solde, vous pouvez débiter la carte ⟦credit-card|5189-5506-3866-6996⟧.
Merci !
"""),
("email", r"""
Objet : Newsletter de mars – les nouveautés

Bonjour,
Ce mois-ci : la version ⟪version|3.8.2⟫ de l'application arrive avec le mode hors ligne, une nouvelle carte des ⟪digit-run|1 200⟫ points de collecte et des frais réduits de ⟪percentage|15 %⟫ pour les abonnés, et le guide « Zéro déchet » (⟪isbn|978-2-84054-011-3⟫) offert. Votre code carte cadeau : ⟪card-like|4949 1897 6103 7516⟫.
À bientôt !
"""),
("email", r"""
Bonjour,

Suite à l'incident de cette nuit, voici les adresses IP qui ont tenté de se connecter en boucle sur l'extranet :
- ⟦ip-address|185.220.101.47⟧ (⟪time|02:13⟫ à ⟪time|02:41⟫)
- ⟦ip-address|2a01:e0a:2b4:c150::1f⟧
- ⟦ip-address|91.121.66.208⟧
Elles sont bloquées sur le pare-feu depuis ⟪time|7h⟫. Le compte visé était celui de ⟦name|Anaïs Girard⟧ (⟦email|a.girard@groupe-ribaudiere.fr⟧), mot de passe réinitialisé par précaution. Le message de rançon laissé sur le serveur demande ⟪money|0,8 BTC⟫ à l'adresse ⟦crypto-wallet|bc1q98ue9a3nr82j5qxjzaj8syzeudk8gdy8h6z44n⟧ : on ne paie pas, évidemment.

⟦name|Vincent Brun⟧ – SSI
"""),
("email", r"""
Chers parents,

La sortie au musée des Confluences aura lieu le ⟪date|vendredi 5 avril⟫. Départ de l'école à ⟪time|8h15⟫, retour vers ⟪time|16h30⟫. Participation : ⟪money|6 €⟫ par enfant. Pensez aussi au livre de lecture (⟪isbn|978-2-09-124695-6⟫).
Merci de rendre le coupon signé avant le ⟪date|28 mars⟫.

L'équipe enseignante
"""),
("email", r"""
Objet : Paiement de la prestation en crypto

Bonjour ⟦name|Karim⟧,
Comme discuté, tu peux régler la facture en USDC sur Ethereum à l'adresse suivante : ⟦crypto-wallet|0x2Fe279dA7762078dEE3Dfbaa14d8a05e0BE8614F⟧.
Attention, pas sur une autre chaîne ! Si tu préfères en BTC : ⟦crypto-wallet|bc1q66llrnmg8x26zt2nsl2hrnhtdpjwpcvag0zml4⟧. Le hash de la transaction de test que je t'ai envoyée : ⟪hash|0x7f39401a9b95203b1b7bbf61517586e55db084c826d9ee8ba1ada5487272b196⟫
⟦name|Antoine⟧
"""),
("email", r"""
Bonjour ⟦name|Sandrine Picard⟧,

Votre demande de prêt a bien été enregistrée sous le numéro ⟪account-number|PR-2024-118402⟫ (référence de dépôt ⟦uuid|2b11dae5-d4db-4adc-a4de-0a028335e458⟧). Compte de prélèvement indiqué : ⟦iban|FR76 1680 7761 0803 8594 4306 535⟧. Pour finaliser le dossier, merci de nous transmettre :
- un justificatif de domicile de moins de 3 mois,
- vos trois derniers bulletins de salaire,
- un RIB.
Déposez-les sur ⟦url|https://espace.banque-provencale.fr/depot?dossier=PR-2024-118402⟧.
Votre conseillère, ⟦name|Émilie Colin⟧, reste joignable au ⟦phone|04 91 33 58 20⟧ ou par mail : ⟦email|emilie.colin@banque-provencale.fr⟧.
Agence du Vieux-Port, ⟦address|34 quai du Port, 13002 Marseille⟧
"""),
("email", r"""
Bonjour,

Le séminaire annuel se tiendra du ⟪date|12 au 14 juin⟫ au domaine de ⟪place-name|Chantilly⟫ (⟪postal-code-alone|60500⟫). Le programme détaillé et les modalités d'inscription suivront la semaine prochaine.

Bonne journée,
La direction
"""),
("email", r"""
Objet : Résiliation contrat n° ⟪account-number|7812 4409 55⟫

Madame, Monsieur,
Je vous informe de ma volonté de résilier mon abonnement à compter du ⟪date|1er mai 2024⟫.
Titulaire : ⟦name|Marie-Laure Vidal⟧, née le ⟦date-of-birth|24/11/1978⟧
Adresse : ⟦address|417 chemin de la Garrigue, 30250 Sommières⟧
Merci de ne plus prélever ma carte ⟦credit-card|4610 5138 3474 7780⟧ et de rembourser le trop-perçu sur ⟦iban|FR7630003859500741500880016⟧.
Merci de m'adresser une confirmation écrite à ⟦email|ml.vidal30@wanadoo.fr⟧.
"""),
("email", r"""
Hello ⟦name|Pieter⟧,

Thanks for the quick call. As promised, my contact details for the Amsterdam office visit:
⟦name|Hélène du Plessis⟧ – Directrice des achats
⟦phone|+33 1 55 04 78 22⟧ / mobile ⟦phone|+33 7 61 45 02 97⟧
⟦address|18 rue de la Pépinière, 75008 Paris⟧
I will land at Schiphol on the ⟪date|22nd⟫ at ⟪time|10:40⟫. I have the office as ⟦address|Keizersgracht 174, 1016 DW Amsterdam⟧, is that still right?

Kind regards,
⟦name|Hélène⟧
"""),
("email", r"""
Objet : Fwd: Votre colis est en route

Votre colis ⟪tracking-number|1Z4A07R96817324504⟫ a été pris en charge par UPS. Livraison estimée : ⟪date|mercredi⟫.
Ne répondez pas à cet e-mail.
"""),
("email", r"""
Bonjour,

Je me permets de vous relancer concernant ma candidature au poste de développeuse back-end (réf. ⟪other:job-reference|DEV-BE-2024-07⟫).
Mon CV est en ligne : ⟦url|https://www.linkedin.com/in/amandine-gauthier-dev⟧, mon Codeberg : ⟦url|https://codeberg.org/agauthier-dev⟧.
Je suis joignable au ⟦phone|+33 (0)6 23 71 88 45⟧.

Bien cordialement,
⟦name|Amandine Gauthier⟧
"""),
("email", r"""
Objet : Attestation employeur

Je soussigné ⟦name|Olivier Laval⟧, gérant de la société ⟪organisation|Laval Menuiserie SAS⟫ (SIRET ⟪other:siret|812 345 674 00021⟫), ⟦address|ZI du Bois Joli, 8 rue des Artisans, 85500 Les Herbiers⟧, atteste que M. ⟦name|Rémi Barbier⟧, né le ⟦date-of-birth|3 septembre 1990⟧, demeurant ⟦address|21 rue Pasteur, 44300 Nantes⟧, est employé en CDI depuis le ⟪date|1er février 2019⟫.
Fait pour servir et valoir ce que de droit.
"""),
("email", r"""
Bonjour,

Vous trouverez ci-joint le compte rendu (⟪file-name|CR_CODIR_2024-03-11.pdf⟫) ainsi que le tableau budgétaire mis à jour. Points à retenir : taux de marge à ⟪percentage|31,4 %⟫, objectif de ⟪money|2,3 M€⟫ maintenu.

Bonne lecture.
"""),
("email", r"""
Objet : Urgent – remboursement carte

Bonjour,
J'ai été débitée deux fois de ⟪money|59 €⟫ avec ma carte ⟦credit-card|5368 8260 2115 6388⟧ le ⟪date|8 mars⟫. Pouvez-vous annuler le second prélèvement ?
Merci,
⟦name|Isabelle Moulin⟧
⟦address|6 chemin des Vignes, 71000 Mâcon⟧
⟦phone|09 72 41 18 63⟧
"""),
# ---------------------------------------------------------------- ticket (25)
("ticket", r"""
Ticket #⟪other:ticket-number|48213⟫ – Impossible de me connecter
Client : ⟦name|Baptiste Lefebvre⟧ (⟦email|baptiste.lefebvre@sfr.fr⟧)
Description : depuis la mise à jour ⟪version|2.4.1⟫ j'ai l'erreur « session expirée » à chaque connexion. Navigateur Firefox ⟪version|124.0.2⟫. Request-ID ⟦uuid|6298147c-8925-4324-ab75-fe8282600203⟧.
"""),
("ticket", r"""
[Ticket ⟪other:ticket-number|2024-0311-0087⟫] Priorité : haute
Sujet : colis endommagé
Bonjour, mon colis est arrivé écrasé, la cafetière (réf. ⟪product-code|EC-685.M⟫) ne fonctionne plus. Commande ⟪order-number|100254478219⟫. Je souhaite un échange.
Tél./suivi : ⟪tracking-number|8L01927365014⟫ (livré au point relais du ⟪postal-code-alone|13008⟫)
"""),
("ticket", r"""
Demande de modification d'adresse
Ancienne adresse : ⟦address|12 rue Nationale, 59000 Lille⟧
Nouvelle adresse : ⟦address|Appartement 4, 6 rue de Béthune, 59800 Lille⟧
Titulaire : ⟦name|Laetitia Caron⟧ – tél. ⟦phone|03 20 54 61 77⟧
N° d'abonné : ⟪account-number|0712 3345 98⟫
"""),
("ticket", r"""
Sujet : Clé API exposée dans un dépôt public
Bonjour l'équipe sécurité, en faisant un audit je suis tombé sur notre clé AWS dans le repo public du projet « carto-velo » :
AWS_ACCESS_KEY_ID=⟦api-key|AKIAK6NTAX6QJNVLN5Q5⟧
AWS_SECRET_ACCESS_KEY=⟦api-key|RjV4+UNVzWP6xi84gJ3Fb4ipcK6IdztaOSuinftG⟧
DATABASE_URL=⟦url-credentials|postgres://cartovelo:Ye4uN8bq@carto-velo-db.cdm3xk.eu-west-3.rds.amazonaws.com:5432/prod⟧
NPM_TOKEN=⟦api-key|npm_WL6QwdKjt47Nx5yfk2CqTRqUj9LKzGqsFCYV⟧
et même la clé de déploiement :
⟦api-key|-----BEGIN OPENSSH PRIVATE KEY-----
rL6klJp9/pc5BZNPM7R6AQc3sWUzhQip+CaOfSqSVIY69jswGe/V9RgMTDVXOGK2
eQtZSHIhhgjb9n7AQ/FqNstCa/ltduWofl4iwNdI2yJ+EQJ6K5P0/Y2t9+U/Cgm8
Q+cc+5Vg++d+OgJjOUOkxOevxR++q80uz8TOzHvA204+TfG/wsb05BeWLmEoEP0h
-----END OPENSSH PRIVATE KEY-----⟧
Le commit est ⟪hash|0139265d17640bec51733a2073264c6ef4406f08⟫ (⟪date|il y a 3 jours⟫). Pouvez-vous révoquer la clé au plus vite ? Lien : ⟦url|https://github.com/carto-velo/api/blob/main/config/settings.py#L14⟧
— ⟦name|Loïc Cadiou⟧
"""),
("ticket", r"""
Ticket n° ⟪other:ticket-number|77-0392⟫ – Facturation
Le client signale une double facturation sur les factures ⟪invoice-number|F2024-03-0412⟫ et ⟪invoice-number|F2024-03-0413⟫. Montant en litige : ⟪money|418,20 €⟫. Contrat ⟪account-number|CT-889102⟫.
À traiter par le service comptable.
"""),
("ticket", r"""
Catégorie : Fraude / paiement
Message du client : « Quelqu'un a utilisé ma carte ⟦credit-card|4945-6323-3525-8463⟧ pour un achat de ⟪money|742 €⟫ sur votre site le ⟪date|02/04⟫, je n'ai jamais passé cette commande ! »
Nom sur le compte : ⟦name|Florence Hamon⟧, tél. ⟦phone|+33 2 99 78 31 46⟧. Sa seconde carte ⟦credit-card|4023 1481 1327 7430⟧ est à bloquer aussi.
Adresse de livraison de la commande frauduleuse : ⟦address|Rue de la Station 9, 1300 Wavre, Belgique⟧.
Note agent : carte masquée dans le back-office, transmis au service fraude.
"""),
("ticket", r"""
Objet : Problème d'affichage du tableau de bord
Depuis ce matin le graphique des ventes reste vide. J'ai vidé le cache et testé sur Chrome et Edge, même résultat. Capture jointe : ⟪file-name|dashboard_vide@2x.png⟫.
"""),
("ticket", r"""
Demande d'assistance – Wallet
Bonjour, j'ai envoyé ⟪money|0,05 BTC⟫ depuis votre plateforme (mon adresse de dépôt ⟦crypto-wallet|3DryuyWPKB9RvxLAQ8A5rv81Zqz6KjFQrJ⟧) vers ⟦crypto-wallet|1Dt4xfyetPedciXQSqKBrJpUDM1xHc87aW⟧ mais la transaction n'apparaît pas.
Référence interne : ⟦uuid|443617e0-8e5a-432a-8f74-7c724129da5f⟧. Mon identifiant client : ⟪account-number|88410236⟫.
Merci, ⟦name|Stéphane Boyer⟧
"""),
("ticket", r"""
Ticket #⟪other:ticket-number|5512⟫ – Helpdesk interne
L'imprimante du 2e étage (⟪product-code|HP LaserJet M507dn⟫, n° de série ⟪digit-run|PHBLM12345⟫) affiche « bourrage papier » en boucle. Merci de passer.
"""),
("ticket", r"""
Sujet : Accès refusé au serveur de fichiers
Utilisateur : ⟦name|Maxime Poulain⟧
Poste : ⟪other:hostname|PC-COMPTA-07⟫, IP ⟦ip-address|192.168.10.57⟧
Erreur : « \\srv-fichiers\compta : accès refusé ». Le problème est apparu après le changement de mot de passe de ⟪time|9h10⟫.
"""),
("ticket", r"""
Demande de rappel
Nom : ⟦name|Lucie Gros⟧
Téléphone : ⟦phone|0475 61 22 90⟧
Date de naissance du titulaire (vérification) : ⟦date-of-birth|16 juillet 1959⟧
Créneau souhaité : entre ⟪time|12h⟫ et ⟪time|14h⟫
Motif : question sur le contrat d'entretien de la chaudière (contrat ⟪account-number|EN-55210-B⟫).
"""),
("ticket", r"""
Incident prod – webhook Stripe
Les paiements ne sont plus confirmés depuis ⟪time|03:20 UTC⟫. Dans les logs on voit que le secret du webhook a changé, l'ancien était ⟦api-key|whsec_44TsaqDw7GLFKdYsEr0PDqk5mGI2xsOP⟧ (révoqué). La clé restreinte ⟦api-key|rk_live_51vbsozGbjgzKzVRZibjQ3ban1lU2LFy0v8fSup7W0Puq4dun2yDbhN6WlfwBC⟧ est aussi à tourner. Exemple de paiement bloqué : carte ⟦credit-card|378848469668525⟧, cliente ⟦name|Odile Gervais⟧.
Le doc dit de mettre ⟪example-key|whsec_...⟫ dans la variable STRIPE_WEBHOOK_SECRET.
Assigné à : ⟦name|Damien Joly⟧
"""),
("ticket", r"""
[Support] Mot de passe oublié
Je n'arrive plus à me connecter à mon espace, le lien de réinitialisation n'arrive jamais et ⟦url|https://forum.velo-passion.fr/login/reset⟧ me renvoie une erreur 500. Mon identifiant est ⟪handle|@justine.hubert⟫ sur le forum mais je ne sais plus quel mail j'ai mis… peut-être ⟦email|justinehub@hotmail.fr⟧ ?
"""),
("ticket", r"""
Ticket ⟪other:ticket-number|INC0041287⟫ – Sauvegarde échouée
La sauvegarde nocturne du NAS échoue avec « checksum mismatch » sur le fichier ⟪file-name|export_clients_2023.csv.gz⟫ (sha256 ⟪hash|5eca5eb99e0f475c2282c9b328c5db232ea6a56d58b8cfa865c8b20e56c3bc87⟫). Volume : ⟪digit-run|1 874 332⟫ fichiers, ⟪percentage|97 %⟫ d'occupation.
"""),
("ticket", r"""
Vérification d'identité – compte bloqué
Le client ⟦name|Arnaud Besson⟧ demande le déblocage de son compte. Date de naissance déclarée : ⟦date-of-birth|11.07.1985⟧. Adresse : ⟦address|45, avenue Jean Jaurès 69007 Lyon⟧. Pièce d'identité reçue le ⟪date|15/03/2024⟫, conforme. Résident fiscal US déclaré, SSN ⟦ssn|607-03-6353⟧. IBAN déclaré : ⟦iban|FR76 3000 2077 1202 7898 9931 596⟧.
"""),
("ticket", r"""
Bug : l'export PDF tronque les numéros de série
Exemple : le numéro ⟪card-like|4399 5309 3221 9331⟫ (n° de série d'un lecteur, pas une carte !) devient « 4399 5309… ». Pareil pour les IBAN : ⟪iban-like|FR66 5634 8289 2581 4696 6323 455⟫ (IBAN de test volontairement faux) est coupé. Version ⟪version|5.0.17⟫, module Facturation.
"""),
("ticket", r"""
Demande de devis
Bonjour, nous souhaiterions un devis pour l'installation de 12 bornes de recharge sur notre parking. Société ⟪organisation|Transports Gauthier-Lebrun⟫, ⟦address|ZA des Landes, 7 rue Gustave Eiffel, 56850 Caudan⟧. Contact : ⟦name|Valérie Duval⟧, ⟦email|v.duval@transports-gl.fr⟧, ⟦phone|02 97 81 40 36⟧.
"""),
("ticket", r"""
Sujet : Erreur de synchronisation CRM
La synchro avec le CRM plante à chaque import. Message : « duplicate key value violates unique constraint "contacts_pkey" ». Aucun contact importé depuis le ⟪date|10 mars⟫.
"""),
("ticket", r"""
Ticket #⟪other:ticket-number|30981⟫ — Remboursement
Client : ⟦name|Kevin Leclerc⟧
Remboursement de la commande ⟪order-number|C-7730-11824⟫ à effectuer sur l'IBAN ⟦iban|FR7630004663931104961922968⟧ (la carte d'origine ⟦credit-card|2350 3458 2097 6141⟧ est expirée). Transaction d'origine : ⟦uuid|74bc69c8-bdd1-483b-9042-1ad00d67b836⟧.
Montant : ⟪money|64,50 €⟫
"""),
("ticket", r"""
Signalement d'arnaque
Une personne se faisant passer pour votre service client m'a appelé depuis le ⟦phone|+33 9 70 82 15 64⟧ et m'a demandé de virer ⟪money|2 000 €⟫ sur ⟦iban|BE18 9769 0477 6092⟧, puis de payer des « frais » en bitcoin (d'abord sur ⟦crypto-wallet|1Pfk4AxgzVMPTddBsLgkJoUBNgTM9Xw5cG⟧, puis sur ⟦crypto-wallet|3AkhHuTri2e8t4q3eB5ZpHZ1VEUsR34eYC⟧). Ils m'ont aussi demandé le numéro de ma carte ⟦credit-card|6011137439594676⟧ et proposé de payer sur ⟦crypto-wallet|0xc7969e04Fee68C3e7531a01D4EB49cD3108d6Dc5⟧. Ils connaissaient mon adresse (⟦address|7 rue du Four, 38000 Grenoble⟧). Je n'ai rien payé heureusement.
⟦name|Audrey Bouvier⟧
"""),
("ticket", r"""
Demande d'accès VPN
Demandeur : ⟦name|Alexandre Charpentier⟧ (⟦email|alexandre.charpentier@mairie-saint-herblain.fr⟧)
IP publique du domicile : ⟦ip-address|90.12.144.87⟧
Portail : ⟦url|https://vpn.mairie-saint-herblain.fr/remote/login?lang=fr⟧
Justification : télétravail 2 jours par semaine à partir du ⟪date|1er avril⟫.
"""),
("ticket", r"""
Sujet : Lenteurs sur l'application mobile
Plusieurs utilisateurs signalent des temps de chargement de plus de ⟪time|8 s⟫ sur l'écran d'accueil, surtout en 4G. Pas de lien avec une version précise (⟪version|6.1.0⟫ et ⟪version|6.1.2⟫ concernées).
"""),
("ticket", r"""
Demande RGPD – droit d'accès
Madame ⟦name|Sarah Cohen⟧, née le ⟦date-of-birth|29/04/1967⟧, demeurant ⟦address|31 rue Saint-Ferréol, 13001 Marseille⟧, demande la communication de toutes les données la concernant. Elle a aussi été cliente de notre filiale américaine (SSN ⟦ssn|758-81-2252⟧). Référence de la demande : ⟦uuid|90623f40-9bba-47c2-b762-e8adbe2625c1⟧. Pièce jointe : copie de sa carte d'identité. Délai légal : 30 jours.
"""),
("ticket", r"""
Intervention technicien
Adresse d'intervention : ⟦address|Bât. C, 3 allée des Tilleuls, 44300 Nantes⟧ – interphone « ⟦name|Diallo⟧ ». Client : ⟦name|Mamadou Diallo⟧, ⟦phone|07 49 33 18 05⟧. Box fibre, référence ⟪product-code|F@st5696b⟫, voyant rouge clignotant. GPS du pavillon : ⟪coordinates|47.2184, -1.5536⟫. Paiement du déplacement refusé sur la carte ⟦credit-card|3580 9962 3211 9140⟧, à recontacter.
"""),
("ticket", r"""
Question sur le produit
Bonjour, est-ce que le modèle ⟪product-code|KX-TG6852⟫ est compatible avec une box Freebox ? Merci.
"""),
# ---------------------------------------------------------------- log / config (20)
("log", r"""
# .env – environnement de préproduction (ne pas commiter !)
DATABASE_URL=⟦url-credentials|postgresql://facturation:Tz9!mQ2rLp@db-preprod.interne.lacroix-energie.fr:5432/factu⟧
REDIS_URL=⟦url-credentials|redis://:h8Kd2pWq7nX@10.0.4.22:6379/0⟧
STRIPE_SECRET_KEY=⟦api-key|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⟧
AMQP_URL=⟦url-credentials|amqp://factu:Pm3xQ8wz@rabbit.interne.lacroix-energie.fr:5672/preprod⟧
SMTP_URL=⟦url-credentials|smtp://notifications:Gh5tK2mW9@smtp.lacroix-energie.fr:587⟧
ANTHROPIC_API_KEY=⟦api-key|sk-ant-api03-N0e9vuMjs66pGuIzS2hj5hExS4qaAOQsLWxOu-N7T77WmulGpAiGwKfLtEBIg2nu3H-wHRnmYQBE0baNmUbvqLAA⟧
JWT_SECRET=⟦api-key|23c5812a11742ea84764fb5f960451f0b9bf61b093369011e0801bfec5819fe4⟧
SEPA_CREDITOR_IBAN=⟦iban|FR7610278497239498398229751⟧
SENTRY_DSN=⟦url|https://o4506.ingest.sentry.io/4506882⟧
APP_VERSION=⟪version|2.14.0.7⟫
"""),
("log", r"""
2024-03-12 08:41:07,512 INFO  [auth] login ok user=⟦email|h.lemaire@mutuelle-armor.fr⟧ ip=⟦ip-address|86.247.13.90⟧ session=⟦uuid|115a5f4c-486a-4381-a9b2-f4a455bef0b8⟧
2024-03-12 08:41:09,003 WARN  [auth] 3 échecs de connexion user=⟦email|rgirard@mutuelle-armor.fr⟧ ip=⟦ip-address|2001:861:3c80:1a40:5d2e:9f14:a3b7:6c01⟧
2024-03-12 08:41:12,250 INFO  [api] GET /v1/adherents/⟪digit-run|004412⟫ 200 ⟪time|38ms⟫ req=⟦uuid|644f159c-27f1-4719-ace7-dcf6858b6a98⟧
2024-03-12 08:41:12,251 DEBUG [api] headers: Authorization: Bearer ⟦api-key|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNzYxNiIsImlhdCI6MTcyNjUzMTM2MCwic2NvcGUiOiJhcGkifQ.D07IgqGEaPIsFQD8Y-3Q-Zo8wXNONWXVSCneO8qQ5Eg⟧
2024-03-12 08:41:15,882 WARN  [db] pool reconnect url=⟦url-credentials|mysql://adh_app:Rt8!vLq2@10.8.1.40:3306/adherents⟧ session=⟦uuid|9042cf43-6ed4-4b65-a4c2-0ea2186ac56a⟧
"""),
("log", r"""
[2024-05-02T14:22:31.118Z] ERROR payment-service: charge failed for order ⟪order-number|400918273456⟫
  card=⟦credit-card|4528610892541179⟧ exp=⟪date|11/26⟫ holder="⟦name|ELODIE PERRIN⟧"
  gateway_response={"code":"card_declined","decline_code":"insufficient_funds"}
  trace_id=⟦uuid|2ab71cdf-0046-4e65-8095-8b5d19f4054c⟧ gateway=⟦url-credentials|https://api_marchand:Zw9kP4tR@secure.passerelle-monetique.fr/v3/charge⟧
[2024-05-02T14:22:34.902Z] ERROR payment-service: charge failed for order ⟪order-number|400918273457⟫
  card=⟦credit-card|4810936386442252⟧ exp=⟪date|03/27⟫ holder="⟦name|H. COLLIGNON⟧" trace_id=⟦uuid|fa81cc94-8965-4bba-8ec6-38c5fe47ff31⟧
[2024-05-02T14:23:02.117Z] ERROR payment-service: charge failed for order ⟪order-number|400918273502⟫
  card=⟦credit-card|342758136508256⟧ exp=⟪date|08/25⟫ holder="⟦name|SEGOLENE MARTINEAU⟧" trace_id=⟦uuid|f59a7514-0620-43a5-8f98-1a624e1f3f65⟧
[2024-05-02T14:23:40.550Z] ERROR payment-service: charge failed for order ⟪order-number|400918273611⟫
  card=⟦credit-card|36724391930511⟧ holder="⟦name|PAUL-HENRI VIGNAL⟧" trace_id=⟦uuid|150ca716-d053-48da-866e-63b04ac159b4⟧ bin=⟪card-like|4576563621815355⟫
"""),
("log", r"""
# snmpd.conf – supervision du cluster
rocommunity supervision ⟦ip-address|10.12.0.0⟧/16
view   systemonly  included   ⟪oid|.1.3.6.1.2.1.1⟫
view   systemonly  included   ⟪oid|.1.3.6.1.2.1.25.1⟫
extend raid-status /usr/local/bin/check_raid  # OID ⟪oid|1.3.6.1.4.1.8072.1.3.2⟫
sysLocation    Salle serveur B, ⟦address|2 rue Henri Le Guilloux, 35000 Rennes⟧
sysContact     ⟦name|Yannick Kerbrat⟧ <⟦email|supervision@dsi-bretagne-sante.fr⟧>
"""),
("log", r"""
Mar 14 02:17:45 mail01 postfix/smtpd[⟪digit-run|21874⟫]: NOQUEUE: reject: RCPT from unknown[⟦ip-address|194.26.29.114⟧]: 554 5.7.1 <⟦email|compta@ets-morel-freres.fr⟧>: Relay access denied
Mar 14 02:17:46 mail01 postfix/smtpd[⟪digit-run|21874⟫]: disconnect from unknown[⟦ip-address|194.26.29.114⟧] ehlo=1 mail=1 rcpt=0/1 commands=2/3
"""),
("log", r"""
# config/sms.yml
provider: ovh
sender: "MAIRIE"
application_key: ⟪example-key|XXXXXXXXXXXXXXXX⟫   # à remplacer en prod
application_secret: ⟦api-key|b3f9e594c56de9772993f9b4781b3fbc⟧
callback_url: ⟦url-credentials|https://mairie:Xk29vAb7@sms-retour.ville-plougastel.fr/hooks/ovh⟧
test_recipients:
  - ⟦phone|+33 6 98 14 72 05⟧   # ⟦name|Cécile Renaud⟧ (astreinte)
  - ⟦phone|+33 7 83 50 26 41⟧   # ⟦name|Patrice⟧
"""),
("log", r"""
2024-04-18 11:02:55 INFO  build #⟪digit-run|1482⟫ started by jenkins (commit ⟪hash|a5bc892⟫)
2024-04-18 11:04:12 INFO  tests: 1 284 passed, 3 skipped in ⟪time|76.4s⟫
2024-04-18 11:04:40 INFO  artefact ⟪file-name|app-release-7.3.1.apk⟫ (sha256 ⟪hash|fbd8c33387b08f627ca09687d0b60e970d1d93f125d8f91fc99211f905b74807⟫)
2024-04-18 11:04:41 INFO  build #⟪digit-run|1482⟫ SUCCESS
"""),
("log", r"""
# docker-compose.override.yml (poste de ⟦name|Quentin Dumas⟧)
services:
  api:
    environment:
      - MONGO_URI=⟦url-credentials|mongodb+srv://fdumas:Bb7rTq!e2@cluster0.x4k2p.mongodb.net/crm?retryWrites=true⟧
      - OPENAI_API_KEY=⟦api-key|sk-CT6wMFqRVNMhrKBNIWv4g34Pmvi6nB1OiRVVjM8s4CcI9ZUg⟧
      - RABBITMQ_URL=⟦url-credentials|amqp://crm:Jc6!yT3p@rabbitmq:5672/%2F⟧
      - ELASTIC_URL=⟦url-credentials|https://elastic:Nv8qLw2sE5@es.dev-crm.fr:9200⟧
      - HF_TOKEN=⟦api-key|hf_QI0DpjwcM0nd1YyuyG5RDQV9U2VUcGyazO⟧
      - LOG_LEVEL=debug
"""),
("log", r"""
nginx access.log
⟦ip-address|78.193.42.7⟧ - - [12/Mar/2024:10:15:32 +0100] "GET /inscription?ref=⟪other:campaign-code|NEWS0324⟫ HTTP/1.1" 200 5120 "⟦url|https://www.google.fr/⟧" "Mozilla/5.0"
⟦ip-address|176.134.9.218⟧ - - [12/Mar/2024:10:15:33 +0100] "POST /api/contact HTTP/1.1" 201 87 "-" "okhttp/4.12.0" rid=⟦uuid|db8a3a85-f13f-4e29-9e26-65ea34031ca5⟧
⟦ip-address|88.166.20.131⟧ - - [12/Mar/2024:10:15:40 +0100] "GET /paiement/retour?cc=⟦credit-card|4349033899264496⟧&exp=0826 HTTP/1.1" 302 0 "⟦url|https://paiement.cic-monetico.fr/paiement.cgi?TPE=6432918⟧" "Mozilla/5.0"
"""),
("log", r"""
-- seed.sql (données de démo, clients fictifs)
INSERT INTO clients (nom, prenom, date_naissance, adresse, telephone) VALUES
 ('⟦name|Lacroix⟧', '⟦name|Agathe⟧', '⟦date-of-birth|1982-06-14⟧', '⟦address|19 rue du Faubourg Saint-Antoine, 75011 Paris⟧', '⟦phone|0144759386⟧'),
 ('⟦name|Nguyen⟧', '⟦name|Van Long⟧', '⟦date-of-birth|1975-01-30⟧', '⟦address|7 place Bellecour, 69002 Lyon⟧', '⟦phone|0472418806⟧'),
 ('⟦name|Petit⟧', '⟦name|Mathieu⟧', '⟦date-of-birth|1999-12-02⟧', '⟦address|2 rue Sainte-Catherine, 33000 Bordeaux⟧', '⟦phone|0556487213⟧');
"""),
("log", r"""
2024-02-29 23:59:59.998 WARN  scheduler: job "purge-sessions" took ⟪time|1843 ms⟫ (threshold 1000 ms)
2024-03-01 00:00:00.004 INFO  scheduler: job "rotation-logs" started, pid ⟪digit-run|90412⟫
2024-03-01 00:00:02.310 INFO  scheduler: job "rotation-logs" done, ⟪digit-run|14⟫ files compressed, batch=⟪card-like|4653885624240754⟫
"""),
("log", r"""
# ~/.ssh/config
Host bastion
    HostName ⟦ip-address|51.91.200.134⟧
    User ⟪handle|deploy⟫
    IdentityFile ~/.ssh/id_ed25519
Host preprod-*
    ProxyJump bastion
    User ⟪handle|admin-ops⟫
"""),
("log", r"""
[2024-06-07 16:30:11] production.ERROR: Mailgun API error 401 {"exception":"[object] (GuzzleHttp\\Exception\\ClientException: 401 Unauthorized) key=⟦api-key|key-302faa500376be7c6bfd6621174e49b8⟧ domain=mg.boutique-noemie.fr to=⟦email|clemence.legoff@icloud.com⟧"}
[2024-06-07 16:30:12] production.INFO: fallback SMTP ⟦url-credentials|smtps://postmaster%40mg.boutique-noemie.fr:e81Kq2WvP0@smtp.eu.mailgun.org:465⟧
"""),
("log", r"""
# /etc/hosts – réseau agence de ⟪place-name|Strasbourg⟫
⟦ip-address|172.16.8.10⟧     srv-ad01.agence.local
⟦ip-address|172.16.8.11⟧     srv-files.agence.local
⟦ip-address|fe80::a2c8:8fff:fe21:3b4e⟧  imprimante-rdc
"""),
("log", r"""
kubectl get pods -n paiement
NAME                              READY   STATUS    RESTARTS   AGE
payment-api-7d9f8b6c5-x2lqp       1/1     Running   0          ⟪time|3d4h⟫
payment-worker-5b7c9d4f8-kk9zt    1/1     Running   2          ⟪time|3d4h⟫
redis-0                           1/1     Running   0          ⟪time|12d⟫
"""),
("log", r"""
# terraform.tfvars – NE PAS VERSIONNER
github_token   = "⟦api-key|ghp_803Kn30ynX2STjQZ5OlZGRHPxGD8v8eKtvaA⟧"
owner_email    = "⟦email|infra@coop-laitiere-vendee.fr⟧"
allowed_cidrs  = ["⟦ip-address|82.64.117.25⟧/32", "⟦ip-address|2a01:cb08:8e1:4d00::⟧/56"]
module_version = "⟪version|1.2.3.4⟫"
project_id     = "⟦uuid|a680728c-458c-4dad-96f4-ab29c9df30a3⟧"
cloudflare_api_token = "⟦api-key|nLqnCpc4hJFoej_DYNDbGcso649s5_NuvTqcgByP⟧"
legacy_db_url  = "⟦url-credentials|mysql://root:Coop2019Vendee@51.38.112.70:3306/lait⟧"
"""),
("log", r"""
2024-03-20 09:12:44 INFO  [kyc] dossier ⟦uuid|d2a1fab4-c279-4586-ba65-405f76e6a96b⟧ reçu : nom="⟦name|Fatima Zahra Alaoui⟧" naissance="⟦date-of-birth|1993-08-21⟧" iban="⟦iban|FR7630002135847402315155450⟧"
2024-03-20 09:12:45 INFO  [kyc] contrôle ⟪percentage|100%⟫ OK, score ⟪math|0.9734⟫
2024-03-20 09:12:45 DEBUG [kyc] adresse="⟦address|58 avenue de la République, 93100 Montreuil⟧" tel="⟦phone|+33652087314⟧"
2024-03-20 09:14:02 INFO  [kyc] dossier ⟦uuid|395ef930-e222-4899-b638-e9244700a37c⟧ reçu : nom="⟦name|Matthew Sullivan⟧" naissance="⟦date-of-birth|1979-04-03⟧" ssn="⟦ssn|056-39-9206⟧" adresse="⟦address|2214 Elm Street, Apt 3, Evanston, IL 60201⟧"
2024-03-20 09:14:02 WARN  [kyc] dossier ⟦uuid|209a15da-d733-4d25-b779-53b78721f111⟧ : nom="⟦name|Bérénice Taillandier⟧" naissance="⟦date-of-birth|1988-10-09⟧" iban="⟦iban|DE50590595690658938376⟧" adresse="⟦address|Kaiserstraße 41, 66111 Saarbrücken⟧" → pays de résidence à confirmer
"""),
("log", r"""
# crontab -l
# m h  dom mon dow   command
15 3 * * *  /opt/backup/run.sh --target ⟦url-credentials|sftp://sauvegarde:Qn4!vZ8e@backup.hebergeur-nord.fr:22/clients⟧ >> /var/log/backup.log 2>&1
30 3 * * *  curl -fsS -m 10 ⟦url|https://hc-ping.com/75e7312f-4530-4de4-bd91-4d42d89a833f⟧
45 3 * * 0  lftp -c "mirror -R /srv/exports ⟦url-credentials|ftp://exports:Fa9!pQ3z@ftp.transporteur-ouest.fr/depot⟧"
0 */6 * * * /opt/scripts/purge_tmp.sh
*/5 * * * * /tmp/.x/kworker -o pool.minexmr.fr:4444 -u ⟦crypto-wallet|0x4DEDDCA488af8486Fc01723E3265406203B0BA57⟧   # ??? pas à nous
"""),
("log", r"""
ldapsearch -x -H ldap://ad.interne -b "dc=interne,dc=local" "(objectClass=user)"
# OID de l'attribut objectGUID : ⟪oid|1.2.840.113556.1.4.2⟫
# schéma : ⟪oid|1.3.6.1.4.1.1466.115.121.1.40⟫
# ⟪digit-run|4317⟫ entrées retournées
"""),
("log", r"""
[WARN] 2024-01-09 17:45:02 payout-worker: virement vers ⟦iban|FR7610278517332292689081728⟧ bénéficiaire "⟦name|Jean-Baptiste Morel⟧" rejeté (code ⟪other:sepa-reason-code|AC04⟫, compte clôturé)
[INFO] 2024-01-09 17:45:02 payout-worker: notification envoyée à ⟦email|jb.morel@gmx.fr⟧ et au ⟦phone|+33 6 31 27 64 88⟧
[INFO] 2024-01-09 17:45:03 payout-worker: payout_id=⟦uuid|dd902850-37f2-4590-8d64-82f6ca559622⟧ virement vers ⟦iban|LU134283265257972798⟧ bénéficiaire "⟦name|Sophie Lambert-Durand⟧" OK
[INFO] 2024-01-09 17:45:04 payout-worker: retrait crypto LTC vers ⟦crypto-wallet|MLKNN6AHHsD9TMqun69fKxhWbxdkuSEJdL⟧ OK
[INFO] 2024-01-09 17:45:04 payout-worker: retrait crypto LTC vers ⟦crypto-wallet|ltc1quqxsnltshm7cd5gx6ehf6uzcu8h0f08qnve95v⟧ OK
[INFO] 2024-01-09 17:45:05 payout-worker: retrait crypto DOGE vers ⟦crypto-wallet|DTGhQWFRSmTVWvz6oYQ5R5j9auntw12Wj7⟧ en attente
"""),
# ---------------------------------------------------------------- doc (25)
("doc", r"""
FACTURE N° ⟪invoice-number|2024-0317⟫                                   Date : ⟪date|17/03/2024⟫
Émetteur : Atelier Céramique ⟦name|Blanche Fontaine⟧, ⟦address|6 rue des Potiers, 26220 Dieulefit⟧ – SIRET ⟪other:siret|853 112 908 00014⟫
Client : ⟦name|Guy Lemonnier⟧, ⟦address|40 avenue du Maréchal Leclerc, 14000 Caen⟧
Désignation : 12 bols grès émaillé (réf. ⟪product-code|BOL-GR-14⟫) ........ ⟪money|312,00 €⟫
TVA non applicable, art. ⟪section-number|293 B⟫ du CGI
Règlement par virement : ⟦iban|FR76 1680 7518 7243 9100 6323 002⟧ – BIC ⟪other:bic|CCBPFRPPGRE⟫
⟦url|www.atelier-fontaine-ceramique.fr⟧
"""),
("doc", r"""
CONTRAT DE LOCATION – BAIL D'HABITATION (extrait)
Entre les soussignés :
⟦name|Hervé de Kerguelen⟧, né le ⟦date-of-birth|8 mai 1956⟧, demeurant ⟦address|22 rue de Siam, 29200 Brest⟧, ci-après « le Bailleur »,
et ⟦name|Zoé Marchand⟧, née le ⟦date-of-birth|14 janvier 1998⟧, ci-après « le Locataire »,
il a été convenu la location du logement situé ⟦address|15 rue Jean Jaurès, appartement 3B, 29200 Brest⟧.
Article ⟪section-number|4.2.1⟫ – Le loyer mensuel est fixé à ⟪money|640 €⟫ hors charges, payable le ⟪date|5⟫ de chaque mois sur le compte ⟦iban|FR7616807543933398287663278⟧.
"""),
("doc", r"""
CURRICULUM VITAE
⟦name|Inès Benali⟧
⟦address|10 rue Paul Bert, 92120 Montrouge⟧ · ⟦phone|06 58 43 20 17⟧ · ⟦email|ines.benali@protonmail.com⟧
Née le ⟦date-of-birth|05/10/1996⟧ – Permis B
EXPÉRIENCE
2021–2024  Data analyst, ⟪organisation|Société Générale⟫, ⟪place-name|La Défense⟫
2019–2021  Chargée d'études, ⟪organisation|Ipsos⟫
Portfolio : ⟦url|https://inesbenali.github.io/portfolio/⟧
"""),
("doc", r"""
Compte rendu – Comité de pilotage du ⟪date|4 mars 2024⟫
Présents : ⟦name|Christelle Noël⟧ (DSI), ⟦name|Benoît Royer⟧ (Finance), ⟦name|Wouter Van den Broeck⟧ (prestataire), ⟦name|Klaus Winter⟧ (siège)
1. Avancement du lot ⟪section-number|2.1.3.4⟫ : ⟪percentage|80 %⟫ réalisé, recette prévue S14.
2. Budget : dépassement de ⟪money|18 k€⟫ sur l'hébergement.
3. Risque : la clé d'API du fournisseur de cartographie (⟦api-key|AIzaB3TRYFoVBVo77quSNmRfBoHyiAb1RwDyOta⟧) a été retrouvée dans un ticket public → régénérer avant vendredi (⟦name|Benoît⟧).
4. Incident : l'export des salariés US envoyé par erreur à un prestataire contenait les SSN de ⟦name|Rachel Moore⟧ (⟦ssn|312-64-6916⟧) et ⟦name|Sean O'Donnell⟧ (⟦ssn|413-53-1057⟧). Déclaration CNIL à faire sous 72 h.
Prochaine réunion : ⟪date|18 mars⟫, ⟪time|10h⟫.
"""),
("doc", r"""
# geo-velo

Petite API de calcul d'itinéraires cyclables pour ⟪place-name|Grenoble⟫.

## Installation
```
pip install -r requirements.txt
# base locale par défaut : ⟦url-credentials|postgres://geovelo:geovelo-dev-2024@localhost:5432/geovelo⟧
cp .env.example .env   # puis renseigner MAPBOX_TOKEN=⟪example-key|pk.votre-token-ici⟫
```
## Soutenir le projet
BTC : ⟦crypto-wallet|bc1qh33ggfd86n45ju8839jlkkz7q5yl6t0u6h9q7m⟧
ETH : ⟦crypto-wallet|0x83DA37835c4D0738CFC365DFc1fE4Abac8ca60e6⟧
DOGE : ⟦crypto-wallet|DCjaPw89R14ChmUBX7QorxMQ1evzGjskzQ⟧
LTC : ⟦crypto-wallet|LWsC8ZDEnutXpUAL9Jp6RKZg8Zgbup62Ui⟧
Mainteneur : ⟦name|Bastien⟧ (⟦email|remi@geovelo-dev.fr⟧)
"""),
("doc", r"""
RÈGLEMENT INTÉRIEUR – extrait
Article ⟪section-number|12.3⟫ : Les horaires d'ouverture de la médiathèque sont de ⟪time|9h⟫ à ⟪time|18h⟫ du mardi au samedi.
Article ⟪section-number|12.4⟫ : Le prêt est limité à 10 documents par carte pour une durée de trois semaines.
Article ⟪section-number|12.5⟫ : Toute perte ou détérioration sera facturée au prix public (voir ⟪isbn|ISBN 978-2-07-036822-8⟫ pour le catalogue de référence).
"""),
("doc", r"""
FORMULAIRE D'ADHÉSION – Association Les Amis du Vélo
Nom : ⟦name|Perrot⟧    Prénom : ⟦name|Adrien⟧
Date de naissance : ⟦date-of-birth|27/02/1988⟧
Adresse : ⟦address|4 place du Marché, 21000 Dijon⟧
Téléphone : ⟦phone|03 80 67 12 94⟧    Mobile : ⟦phone|+33 6 02 55 81 37⟧
E-mail : ⟦email|adrien.perrot@bbox.fr⟧
Cotisation : ⟪money|25 €⟫ – réglée par chèque n° ⟪digit-run|0004812⟫
Prélèvement SEPA pour les années suivantes : ⟦iban|FR7630002374733707932161972⟧
"""),
("doc", r"""
Note interne – Procédure d'archivage
1. Les dossiers clos depuis plus de 5 ans sont transférés au service Archives.
2. Chaque carton porte une étiquette avec le code de classement (ex. ⟪product-code|ARC-2019-B-045⟫).
3. Les bordereaux sont saisis dans le logiciel (version ⟪version|11.2.0.4⟫) avant le ⟪date|31 décembre⟫.
"""),
("doc", r"""
FATCA – Auto-certification de résidence fiscale (personne physique)
Titulaire : ⟦name|Emily Hope Carter⟧, épouse ⟦name|Vasseur-Carter⟧
Date de naissance : ⟦date-of-birth|03/22/1981⟧
Nationalité : américaine et française
Adresse de résidence : ⟦address|5 rue des Écoles, 67000 Strasbourg⟧
US TIN (SSN) : ⟦ssn|728-61-1476⟧
Adresse aux États-Unis : ⟦address|1847 Oak Park Blvd, Pleasant Hill, CA 94523⟧
Compte concerné : ⟦iban|FR7610907783721802637233889⟧
Enfant mineur (US person) : ⟦name|Lily⟧, SSN ⟦ssn|516-43-5396⟧
"""),
("doc", r"""
US PAYROLL – export mensuel filiale ⟪organisation|Nordhaus Inc.⟫ (confidentiel)
employee_id | name                 | ssn         | state
⟪account-number|US-00412⟫    | ⟦name|Brian Kowalski⟧       | ⟦ssn|603-32-4821⟧ | IL
⟪account-number|US-00413⟫    | ⟦name|Maria Delgado⟧        | ⟦ssn|564-53-8917⟧ | TX
⟪account-number|US-00419⟫    | ⟦name|Tyrone Washington⟧    | ⟦ssn|538345300⟧   | GA
⟪account-number|US-00421⟫    | ⟦name|Ashley Nguyen-Parker⟧ | ⟦ssn|650-67-6229⟧ | CA
⟪account-number|US-00427⟫    | ⟦name|Dwayne Fischer⟧       | ⟦ssn|809-12-2422⟧ | OH
⟪account-number|US-00430⟫    | ⟦name|Priya Raman⟧          | ⟦ssn|106-81-3665⟧ | NJ
⟪account-number|US-00433⟫    | ⟦name|Summer Sandoval-Reyes⟧  | ⟦ssn|629-83-9800⟧ | AZ
Total brut : ⟪money|$84,215.40⟫
"""),
("doc", r"""
LETTRE RECOMMANDÉE AVEC AR
⟦name|Annick Le Bihan⟧
⟦address|3 rue de la Marne, 22300 Lannion⟧
                                   À l'attention de ⟪organisation|Assurances du Trégor⟫
                                   ⟦address|BP 40211, 22302 Lannion Cedex⟧
Objet : sinistre n° ⟪account-number|SIN-2024-003381⟫
Madame, Monsieur, je conteste l'évaluation de l'expert concernant le dégât des eaux survenu le ⟪date|12 janvier 2024⟫...
"""),
("doc", r"""
Ordre du jour – Conseil d'école
1. Bilan du premier trimestre
2. Projet « classe verte » : coût estimé ⟪money|4 800 €⟫, participation des familles ⟪percentage|40 %⟫
3. Travaux de la cour (devis n° ⟪other:quote-number|D-2024-118⟫)
4. Manuels de CM2 : commande de 28 exemplaires (⟪isbn|ISBN 978-2-218-11547-9⟫)
5. Questions diverses
"""),
("doc", r"""
BON DE COMMANDE – Hôtel Le Grand Large
Client : Mr. ⟦name|John Whitfield⟧
Adresse : ⟦address|14 Wharf Road, London N1 7GR, United Kingdom⟧
Tél. : ⟦phone|+44 20 7946 1832⟧
Séjour : du ⟪date|2 au 6 juillet⟫, chambre double vue mer, ⟪money|189 €⟫/nuit
Garantie : Amex ⟦credit-card|3499 174856 88092⟧, exp. ⟪date|04/27⟫
Conditions : ⟦url|https://www.hotel-legrandlarge-stmalo.fr/conditions-generales⟧
"""),
("doc", r"""
Fiche technique – Pompe à chaleur ⟪product-code|PAC-AW-11T⟫
Puissance nominale : ⟪math|11,2 kW⟫ – COP : ⟪math|4,65⟫ (A7/W35)
Plage de fonctionnement : ⟪math|-20⟫ à ⟪math|+35 °C⟫
N° de série type : ⟪digit-run|2310-0045-7781-22⟫
Conforme à la norme EN ⟪section-number|14511-2⟫
"""),
("doc", r"""
RUNBOOK – Bascule de la base de données
1. Couper l'écriture sur le primaire : `ALTER SYSTEM SET default_transaction_read_only = on;`
2. Vérifier la réplication depuis ⟦ip-address|10.40.2.11⟧ (réplica) : lag < ⟪time|1 s⟫.
3. Modifier la chaîne de connexion dans Vault :
   ⟦url-credentials|postgres://svc_compta:Kx3!pR8vWm@10.40.2.11:5432/compta?sslmode=require⟧
   (supprimer l'ancienne : ⟦url-credentials|postgres://svc_compta:Hiver2023!@10.40.2.10:5432/compta⟧)
   Jeton Vault de l'équipe : ⟦api-key|hvs.WFj51EvpVPH9S0qwiJQ60opg⟧
4. Prévenir ⟦name|Nicolas Carpentier⟧ (astreinte, ⟦phone|06 77 40 91 25⟧).
"""),
("doc", r"""
Extrait du procès-verbal de l'assemblée générale du ⟪date|20 avril 2024⟫
Résolution 3 : L'assemblée approuve les comptes de l'exercice clos le ⟪date|31/12/2023⟫, faisant apparaître un résultat de ⟪money|12 430 €⟫. Adoptée à l'unanimité.
Résolution 4 : Le mandat du trésorier est renouvelé pour deux ans.
Résolution 5 : Le siège est transféré à ⟪place-name|Cahors⟫ (⟪postal-code-alone|46000⟫).
"""),
("doc", r"""
AVIS D'ÉCHÉANCE – Assurance habitation
Assuré : ⟦name|François-Xavier de Montalembert⟧
⟦address|Château de la Motte, 1 route de Saumur, 37420 Avoine⟧
Contrat ⟪account-number|MRH-0088413270⟫ – échéance au ⟪date|01/09/2024⟫
Montant annuel : ⟪money|486,30 €⟫, prélevé sur ⟦iban|FR76 3006 6400 2031 2961 2554 345⟧
Votre conseiller : ⟦name|Hugo Lemaire⟧, ⟦phone|02 47 58 30 12⟧ – agence de ⟦address|12 place Jean Jaurès, 37000 Tours⟧
"""),
("doc", r"""
Note de frais – ⟪date|mars 2024⟫
Salarié : ⟦name|Linh Tran⟧ – matricule ⟪account-number|004519⟫
Déplacement ⟪place-name|Paris⟫ – ⟪place-name|Lille⟫ (TGV) : ⟪money|96,00 €⟫
Hôtel Ibis Lille Centre : ⟪money|112,00 €⟫
Carte affaires utilisée : ⟦credit-card|5109 4209 7005 3426⟧
Avance sur carte personnelle : ⟦credit-card|5555 9464 1567 6214⟧ → remboursement sur ⟦iban|FR76 1820 6084 3504 8007 5598 492⟧
Validé par : ⟦name|Laure Delacroix⟧
"""),
("doc", r"""
Guide de démarrage rapide
1. Branchez le boîtier sur une prise secteur.
2. Connectez-vous au réseau Wi-Fi « BOX-⟪other:wifi-ssid-suffix|7F3A⟫ ».
3. Ouvrez ⟦url|http://192.168.1.1⟧ dans votre navigateur (⟦ip-address|192.168.1.1⟧ est l'adresse par défaut).
4. Le mot de passe par défaut figure sous le boîtier (format ⟪example-key|XXXX-XXXX-XXXX⟫).
"""),
("doc", r"""
ATTESTATION D'HÉBERGEMENT
Je soussignée ⟦name|Geneviève Tremblay⟧, née le ⟦date-of-birth|19 octobre 1972⟧ à ⟪place-name|Québec⟫, demeurant ⟦address|2150, rue Sherbrooke Est, Montréal (Québec) H2K 1C1⟧, atteste héberger à titre gratuit ⟦name|Étienne Gagnon⟧ depuis le ⟪date|1er septembre 2023⟫.
Contact : ⟦phone|+1 514-523-8841⟧
"""),
("doc", r"""
Cahier des charges – Portail fournisseurs (v⟪version|0.9⟫)
§ ⟪section-number|3.4.2⟫ Authentification : OAuth 2.0, jetons d'accès de ⟪time|15 minutes⟫.
§ ⟪section-number|3.4.3⟫ Les identifiants techniques sont des UUID v4.
§ ⟪section-number|3.4.4⟫ Contrôle des RIB : l'IBAN ⟪iban-like|FR32 5784 8128 1766 1163 2333 227⟫ doit être rejeté (clé invalide).
§ ⟪section-number|3.4.5⟫ Les certificats clients portent l'OID de politique ⟪oid|1.2.250.1.223.1.1.4⟫.
§ ⟪section-number|3.5⟫ Disponibilité cible : ⟪percentage|99,9 %⟫ hors maintenance programmée.
"""),
("doc", r"""
FACTURE ⟪invoice-number|INV-2024-0042⟫
De : ⟦name|Jakub Nowak⟧ – développeur freelance, ⟦address|ul. Długa 18/4, 31-147 Kraków, Poland⟧
À : ⟪organisation|Studio Graphique Aubert⟫, ⟦address|11 rue Chaptal, 75009 Paris⟧
Prestation : intégration front-end, 8 jours × ⟪money|450 €⟫
Paiement : ⟦iban|PT09374660979488008223135⟧, en ETH : ⟦crypto-wallet|0x10Db8866E0FcF1Ea2B7D10E7afa983f91f35eebC⟧ ou en BTC : ⟦crypto-wallet|bc1qspg5lst6n3he7l74kes8yse4hk2hmgu4k5p7y7⟧
Référence de paiement : ⟦uuid|b44130c9-76cd-43ce-8891-44a25b97bc69⟧
"""),
("doc", r"""
Plan d'accès
Le centre de formation (⟪place-name|Lyon⟫ ⟪postal-code-alone|69003⟫) se trouve à ⟪coordinates|45.7640, 4.8357⟫ (GPS), à 10 minutes à pied de la gare ⟪place-name|Part-Dieu⟫. Parking visiteurs au niveau -2.
"""),
("doc", r"""
Dossier de candidature – Logement étudiant
Nom : ⟦name|Lindqvist⟧  Prénom : ⟦name|Sven⟧
Né le : ⟦date-of-birth|1er juin 2004⟧
Adresse des parents : ⟦address|Storgatan 12, 114 51 Stockholm, Suède⟧
Garant : ⟦name|Ingrid Lindqvist⟧, ⟦phone|+46 70 123 45 67⟧, ⟦email|ingrid.lindqvist@telia.se⟧
Compte du garant : ⟦iban|SE11 5000 2576 6417 4050 9756⟧
Numéro étudiant : ⟪account-number|22104873⟫
Frais de dossier payés par carte ⟦credit-card|6759614022069869086⟧ – suivi : ⟦url|https://logement.crous-grenoble.fr/dossier/22104873⟧
"""),
("doc", r"""
Mentions légales
Le site est édité par ⟪organisation|Les Vergers de Moissac SARL⟫, capital de ⟪money|10 000 €⟫, RCS Montauban ⟪other:rcs-number|512 448 903⟫.
Siège social : ⟦address|Lieu-dit Borde Basse, 850 route de Lafrançaise, 82200 Moissac⟧
Site : ⟦url|https://www.vergers-moissac.fr⟧
Directeur de la publication : ⟦name|Marc Bessières⟧
Hébergeur : ⟪organisation|OVH SAS⟫, ⟦address|2 rue Kellermann, 59100 Roubaix⟧
"""),
]
