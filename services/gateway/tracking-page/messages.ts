import type { Lang } from "../../../lib/languages";
import type { ParcelStatus } from "../../../lib/parcel-status";

/** What each status means for the person who waits for the parcel. */
export interface StatusWording {
  title: string;
  detail: string;
}

export interface Messages {
  languageName: string;
  pageTitle: string;
  languageNav: string;
  skipToContent: string;
  formHeading: string;
  formIntro: string;
  numberLabel: string;
  numberHint: string;
  submit: string;
  emptyNumber: string;
  malformedNumber: string;
  notFoundHeading: string;
  /** `{number}` stands for the tracking number. */
  notFoundBody: string;
  notFoundHelp: string;
  tooManyHeading: string;
  tooManyBody: string;
  parcelHeading: string;
  currentStatus: string;
  codHeading: string;
  codNote: string;
  /** "to collect before …", followed by the deadline's date and time. */
  collectBefore: string;
  collectBeforeNote: string;
  /** A customer's return was opened: the recipient got a return code by SMS (never shown here). */
  returnCodeSent: string;
  returnCodeSentNote: string;
  relayHeading: string;
  relayCode: string;
  /** Before the wilaya's number and name: "Wilaya 68 – Bou Saâda". */
  wilaya: string;
  openingHours: string;
  noOpeningHours: string;
  openNow: (closesAt: string) => string;
  closedNow: (opensAt: { day: string; time: string; today: boolean } | null) => string;
  today: string;
  lastUpdate: string;
  map: string;
  historyHeading: string;
  sandbox: string;
  trackAnother: string;
  privacy: string;
  statuses: Record<ParcelStatus, StatusWording>;
}

const fr: Messages = {
  languageName: "Français",
  pageTitle: "Suivi de colis",
  languageNav: "Langue",
  skipToContent: "Aller au contenu",
  formHeading: "Suivre un colis",
  formIntro: "Saisissez le numéro de suivi reçu par SMS ou imprimé sur votre reçu.",
  numberLabel: "Numéro de suivi",
  numberHint: "13 caractères, par exemple RP123456785DZ. Les espaces sont acceptés.",
  submit: "Suivre",
  emptyNumber: "Saisissez le numéro de suivi.",
  malformedNumber: "Ce numéro ne ressemble pas à un numéro de suivi. Vérifiez-le sur votre SMS ou votre reçu (par exemple RP123456785DZ).",
  notFoundHeading: "Colis introuvable",
  notFoundBody: "Aucun colis ne porte le numéro {number}.",
  notFoundHelp: "Vérifiez le numéro. Un colis tout juste expédié peut n’apparaître qu’après quelques minutes.",
  tooManyHeading: "Trop de recherches",
  tooManyBody: "Vous avez fait beaucoup de recherches en peu de temps. Réessayez dans une minute.",
  parcelHeading: "Colis",
  currentStatus: "Où en est votre colis",
  codHeading: "À payer au retrait",
  codNote: "En espèces, au point relais, au moment du retrait.",
  collectBefore: "À retirer avant le",
  collectBeforeNote: "Passé ce délai, le colis est renvoyé à l'expéditeur.",
  returnCodeSent: "Code de retour envoyé",
  returnCodeSentNote: "Le destinataire a reçu par SMS un code de retour à donner dans n'importe quel point relais.",
  relayHeading: "Votre point relais",
  relayCode: "Code du point\u00a0:",
  wilaya: "Wilaya",
  openingHours: "Horaires d’ouverture",
  noOpeningHours: "Horaires non communiqués.",
  openNow: t => `Ouvert en ce moment · ferme à ${t}`,
  closedNow: o =>
    o === null
      ? "Fermé en ce moment"
      : o.today
        ? `Fermé en ce moment · ouvre à ${o.time}`
        : `Fermé en ce moment · ouvre ${o.day.toLocaleLowerCase("fr")} à ${o.time}`,
  today: "aujourd’hui",
  lastUpdate: "Dernière mise à jour\u00a0:",
  map: "Voir sur la carte",
  historyHeading: "Historique",
  sandbox: "Colis de test (bac à sable) : aucun colis réel n’est acheminé.",
  trackAnother: "Suivre un autre colis",
  privacy: "Vos coordonnées ne sont jamais affichées sur cette page.",
  statuses: {
    CREATED: { title: "Colis enregistré", detail: "L’expéditeur a préparé votre colis ; il sera bientôt remis au transporteur." },
    READY_FOR_PICKUP: { title: "Prêt à être collecté", detail: "Votre colis attend le passage du transporteur chez l’expéditeur." },
    PICKED_UP: { title: "Pris en charge", detail: "Le transporteur a récupéré votre colis chez l’expéditeur." },
    IN_TRANSIT: { title: "En route", detail: "Votre colis est en route vers votre point relais." },
    AT_RELAY: { title: "Arrivé au point relais", detail: "Votre colis vous attend au point relais." },
    RELAY_NOTIFIED: {
      title: "Disponible au retrait",
      detail: "Votre colis vous attend au point relais ; nous vous avons prévenu par SMS."
    },
    DELIVERED: { title: "Remis", detail: "Le colis a été remis à son destinataire au point relais." },
    RETURN_PENDING: {
      title: "Retour en cours",
      detail: "Le colis n’a pas été retiré à temps ou ne peut pas être remis ; il repart chez l’expéditeur."
    },
    RETURNED: { title: "Retourné à l’expéditeur", detail: "Le colis est revenu chez l’expéditeur. Contactez-le pour toute question." },
    LOST: { title: "Colis égaré", detail: "Nous ne retrouvons pas votre colis. L’expéditeur est prévenu et reviendra vers vous." },
    DAMAGED: {
      title: "Colis endommagé",
      detail: "Votre colis a été endommagé pendant le transport. L’expéditeur est prévenu et reviendra vers vous."
    },
    CANCELLED: { title: "Envoi annulé", detail: "L’expéditeur a annulé cet envoi : rien ne vous sera remis ni demandé." }
  }
};

const ar: Messages = {
  languageName: "العربية",
  pageTitle: "تتبع الطرود",
  languageNav: "اللغة",
  skipToContent: "انتقل إلى المحتوى",
  formHeading: "تتبع طردًا",
  formIntro: "أدخل رقم التتبع الذي وصلك في رسالة قصيرة أو المطبوع على الوصل.",
  numberLabel: "رقم التتبع",
  numberHint: "13 حرفًا ورقمًا، مثل RP123456785DZ. يمكن كتابة المسافات.",
  submit: "تتبع",
  emptyNumber: "أدخل رقم التتبع.",
  malformedNumber: "هذا الرقم لا يشبه رقم تتبع. تحقق منه في الرسالة القصيرة أو الوصل (مثل RP123456785DZ).",
  notFoundHeading: "لم يتم العثور على الطرد",
  notFoundBody: "لا يوجد طرد يحمل الرقم {number}.",
  notFoundHelp: "تحقق من الرقم. قد لا يظهر الطرد المرسل حديثًا إلا بعد بضع دقائق.",
  tooManyHeading: "عمليات بحث كثيرة",
  tooManyBody: "أجريت عمليات بحث كثيرة في وقت قصير. أعد المحاولة بعد دقيقة.",
  parcelHeading: "الطرد",
  currentStatus: "أين وصل طردك",
  codHeading: "المبلغ الواجب دفعه عند الاستلام",
  codNote: "نقدًا، في نقطة الاستلام، عند سحب الطرد.",
  collectBefore: "يُسحب قبل",
  collectBeforeNote: "بعد هذا الأجل، يُعاد الطرد إلى المرسل.",
  returnCodeSent: "تم إرسال رمز الإرجاع",
  returnCodeSentNote: "تلقى المستلم عبر رسالة نصية رمز إرجاع يقدمه في أي نقطة استلام.",
  relayHeading: "نقطة الاستلام",
  relayCode: "رمز النقطة:",
  wilaya: "الولاية",
  openingHours: "أوقات العمل",
  noOpeningHours: "أوقات العمل غير متوفرة.",
  openNow: t => `مفتوح الآن · يغلق على الساعة ${t}`,
  closedNow: o =>
    o === null ? "مغلق الآن" : o.today ? `مغلق الآن · يفتح على الساعة ${o.time}` : `مغلق الآن · يفتح يوم ${o.day} على الساعة ${o.time}`,
  today: "اليوم",
  lastUpdate: "آخر تحديث:",
  map: "عرض على الخريطة",
  historyHeading: "سجل التتبع",
  sandbox: "طرد تجريبي: لا يتم نقل أي طرد حقيقي.",
  trackAnother: "تتبع طردًا آخر",
  privacy: "لا تظهر بياناتك الشخصية أبدًا في هذه الصفحة.",
  statuses: {
    CREATED: { title: "تم تسجيل الطرد", detail: "جهّز المرسل طردك، وسيسلّمه قريبًا إلى الناقل." },
    READY_FOR_PICKUP: { title: "جاهز ليأخذه الناقل", detail: "ينتظر طردك مرور الناقل لدى المرسل." },
    PICKED_UP: { title: "تكفّل به الناقل", detail: "أخذ الناقل طردك من عند المرسل." },
    IN_TRANSIT: { title: "في الطريق", detail: "طردك في الطريق إلى نقطة الاستلام." },
    AT_RELAY: { title: "وصل إلى نقطة الاستلام", detail: "طردك في انتظارك في نقطة الاستلام." },
    RELAY_NOTIFIED: { title: "جاهز للسحب", detail: "طردك في انتظارك في نقطة الاستلام، وقد أبلغناك برسالة قصيرة." },
    DELIVERED: { title: "تم التسليم", detail: "سُلّم الطرد إلى صاحبه في نقطة الاستلام." },
    RETURN_PENDING: { title: "قيد الإرجاع", detail: "لم يُسحب الطرد في الوقت المحدد أو تعذّر تسليمه، وهو في طريق العودة إلى المرسل." },
    RETURNED: { title: "أُعيد إلى المرسل", detail: "عاد الطرد إلى المرسل. تواصل معه لأي استفسار." },
    LOST: { title: "طرد مفقود", detail: "لم نعثر على طردك. أُبلغ المرسل وسيتواصل معك." },
    DAMAGED: { title: "طرد متضرر", detail: "تضرر طردك أثناء النقل. أُبلغ المرسل وسيتواصل معك." },
    CANCELLED: { title: "أُلغي الإرسال", detail: "ألغى المرسل هذا الإرسال: لن يُسلّم إليك شيء ولن يُطلب منك أي مبلغ." }
  }
};

const en: Messages = {
  languageName: "English",
  pageTitle: "Parcel tracking",
  languageNav: "Language",
  skipToContent: "Skip to content",
  formHeading: "Track a parcel",
  formIntro: "Enter the tracking number you received by SMS or that is printed on your receipt.",
  numberLabel: "Tracking number",
  numberHint: "13 characters, for example RP123456785DZ. Spaces are fine.",
  submit: "Track",
  emptyNumber: "Enter the tracking number.",
  malformedNumber: "This does not look like a tracking number. Check it on your SMS or receipt (for example RP123456785DZ).",
  notFoundHeading: "Parcel not found",
  notFoundBody: "No parcel has the number {number}.",
  notFoundHelp: "Check the number. A parcel sent moments ago may take a few minutes to appear.",
  tooManyHeading: "Too many searches",
  tooManyBody: "You have made many searches in a short time. Please try again in a minute.",
  parcelHeading: "Parcel",
  currentStatus: "Where your parcel is",
  codHeading: "To pay at pick-up",
  codNote: "In cash, at the relay point, when you collect the parcel.",
  collectBefore: "To collect before",
  collectBeforeNote: "After that, the parcel goes back to the sender.",
  returnCodeSent: "Return code sent",
  returnCodeSentNote: "The recipient got a return code by SMS, to give at any relay point.",
  relayHeading: "Your relay point",
  relayCode: "Point code:",
  wilaya: "Wilaya",
  openingHours: "Opening hours",
  noOpeningHours: "Opening hours not provided.",
  openNow: t => `Open now · closes at ${t}`,
  closedNow: o => (o === null ? "Closed now" : o.today ? `Closed now · opens at ${o.time}` : `Closed now · opens ${o.day} at ${o.time}`),
  today: "today",
  lastUpdate: "Last update:",
  map: "View on a map",
  historyHeading: "History",
  sandbox: "Test parcel (sandbox): no real parcel is being shipped.",
  trackAnother: "Track another parcel",
  privacy: "Your personal details are never shown on this page.",
  statuses: {
    CREATED: { title: "Parcel registered", detail: "The sender has prepared your parcel; it will soon be handed to the carrier." },
    // Issue 30: say what happens next, and never the words of a later status ("pick-up" is the recipient's).
    READY_FOR_PICKUP: { title: "Waiting for the courier", detail: "Your parcel is waiting for the carrier to collect it from the sender." },
    PICKED_UP: { title: "With the courier", detail: "The carrier has collected your parcel from the sender." },
    IN_TRANSIT: { title: "On its way", detail: "Your parcel is on its way to your relay point." },
    AT_RELAY: { title: "Arrived at the relay point", detail: "Your parcel is waiting for you at the relay point." },
    RELAY_NOTIFIED: {
      title: "Ready for you at the relay point",
      detail: "Your parcel is waiting for you at the relay point; we have let you know by SMS."
    },
    DELIVERED: { title: "Handed over", detail: "The parcel was handed over to its recipient at the relay point." },
    RETURN_PENDING: {
      title: "Being returned",
      detail: "The parcel was not picked up in time or cannot be handed over; it is going back to the sender."
    },
    RETURNED: { title: "Returned to sender", detail: "The parcel is back with the sender. Contact them with any question." },
    LOST: { title: "Parcel lost", detail: "We cannot find your parcel. The sender has been told and will get back to you." },
    DAMAGED: { title: "Parcel damaged", detail: "Your parcel was damaged in transit. The sender has been told and will get back to you." },
    CANCELLED: { title: "Shipment cancelled", detail: "The sender cancelled this shipment: nothing will be handed to you or asked of you." }
  }
};

export const MESSAGES: Readonly<Record<Lang, Messages>> = Object.freeze({ fr, ar, en });
