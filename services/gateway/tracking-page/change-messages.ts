import type { Lang } from "../../../lib/languages";

/** The words of "change relay point" (issue 21), in the pages' three languages. */
export interface ChangeMessages {
  heading: string;
  intro: string;
  link: string;
  notChangeable: string;
  codeStep: string;
  codeIntro: string;
  sendCode: string;
  codeSent: string;
  searchStep: string;
  wilaya: string;
  anyWilaya: string;
  city: string;
  search: string;
  searchFirst: string;
  noRelay: string;
  confirmStep: string;
  code: string;
  codeHint: string;
  newRelay: string;
  confirm: string;
  changed: string;
  back: string;
  problems: Record<ChangeProblem, string>;
}

export const CHANGE_PROBLEMS = ["code", "relay", "full", "closed", "limit", "arrived", "form", "other"] as const;
export type ChangeProblem = (typeof CHANGE_PROBLEMS)[number];

const fr: ChangeMessages = {
  heading: "Changer de point relais",
  intro:
    "Vous ne pourrez pas passer à ce point relais\u202f? Tant que le colis n’y est pas arrivé, vous pouvez en choisir un autre, une fois.",
  link: "Choisir un autre point relais",
  notChangeable: "Ce colis ne peut plus changer de point relais.",
  codeStep: "1. Recevoir un code par SMS",
  codeIntro: "Un code à 6 chiffres est envoyé au téléphone du destinataire. Il est valable 10 minutes.",
  sendCode: "Envoyer le code",
  codeSent: "Si ce colis peut encore changer de point relais, un code vient d’être envoyé par SMS au destinataire.",
  searchStep: "2. Trouver le nouveau point relais",
  wilaya: "Wilaya",
  anyWilaya: "Choisir une wilaya",
  city: "Ville (facultatif)",
  search: "Rechercher",
  searchFirst: "Choisissez une wilaya ou une ville pour voir les points relais.",
  noRelay: "Aucun point relais trouvé. Essayez une autre wilaya ou ville.",
  confirmStep: "3. Confirmer",
  code: "Code reçu par SMS",
  codeHint: "6 chiffres",
  newRelay: "Nouveau point relais",
  confirm: "Changer de point relais",
  changed: "C’est fait : votre colis ira au point relais ci-dessous.",
  back: "Retour au suivi du colis",
  problems: {
    code: "Le code n’est pas bon, a expiré ou a été essayé trop de fois. Demandez un nouveau code.",
    relay: "Choisissez un point relais dans la liste.",
    full: "Ce point relais est complet : choisissez-en un autre.",
    closed: "Ce point relais est fermé ces jours-ci : choisissez-en un autre.",
    limit: "Ce colis ne peut plus changer de point relais.",
    arrived: "Le colis est déjà arrivé à son point relais : il ne peut plus changer.",
    form: "Saisissez le code à 6 chiffres et choisissez un point relais.",
    other: "Le changement n’a pas pu être fait. Réessayez dans un instant."
  }
};

const ar: ChangeMessages = {
  heading: "تغيير نقطة الاستلام",
  intro: "لن تتمكن من الذهاب إلى نقطة الاستلام هذه؟ ما دام الطرد لم يصل إليها، يمكنك اختيار نقطة أخرى مرة واحدة.",
  link: "اختيار نقطة استلام أخرى",
  notChangeable: "لم يعد من الممكن تغيير نقطة استلام هذا الطرد.",
  codeStep: "1. استلام رمز عبر رسالة قصيرة",
  codeIntro: "يُرسَل رمز من 6 أرقام إلى هاتف المستلم، وهو صالح لمدة 10 دقائق.",
  sendCode: "إرسال الرمز",
  codeSent: "إذا كان تغيير نقطة الاستلام لا يزال ممكنًا، فقد أُرسل رمز إلى المستلم عبر رسالة قصيرة.",
  searchStep: "2. البحث عن نقطة الاستلام الجديدة",
  wilaya: "الولاية",
  anyWilaya: "اختر ولاية",
  city: "المدينة (اختياري)",
  search: "بحث",
  searchFirst: "اختر ولاية أو مدينة لعرض نقاط الاستلام.",
  noRelay: "لم يتم العثور على أي نقطة استلام. جرّب ولاية أو مدينة أخرى.",
  confirmStep: "3. التأكيد",
  code: "الرمز المستلم في الرسالة",
  codeHint: "6 أرقام",
  newRelay: "نقطة الاستلام الجديدة",
  confirm: "تغيير نقطة الاستلام",
  changed: "تم: سيذهب طردك إلى نقطة الاستلام المبينة أدناه.",
  back: "العودة إلى تتبع الطرد",
  problems: {
    code: "الرمز غير صحيح أو انتهت صلاحيته أو جُرّب مرات كثيرة. اطلب رمزًا جديدًا.",
    relay: "اختر نقطة استلام من القائمة.",
    full: "نقطة الاستلام هذه ممتلئة: اختر نقطة أخرى.",
    closed: "نقطة الاستلام هذه مغلقة هذه الأيام: اختر نقطة أخرى.",
    limit: "لم يعد من الممكن تغيير نقطة استلام هذا الطرد.",
    arrived: "وصل الطرد إلى نقطة الاستلام: لم يعد من الممكن تغييرها.",
    form: "أدخل الرمز المكوّن من 6 أرقام واختر نقطة استلام.",
    other: "تعذّر إجراء التغيير. أعد المحاولة بعد قليل."
  }
};

const en: ChangeMessages = {
  heading: "Change relay point",
  intro: "Can’t get to this relay point? Until the parcel arrives there, you can choose another one, once.",
  link: "Choose another relay point",
  notChangeable: "This parcel’s relay point can no longer be changed.",
  codeStep: "1. Get a code by SMS",
  codeIntro: "A 6-digit code is sent to the recipient’s phone. It is valid for 10 minutes.",
  sendCode: "Send the code",
  codeSent: "If this parcel can still change relay point, a code has just been sent to the recipient by SMS.",
  searchStep: "2. Find the new relay point",
  wilaya: "Wilaya",
  anyWilaya: "Choose a wilaya",
  city: "City (optional)",
  search: "Search",
  searchFirst: "Choose a wilaya or a city to see the relay points.",
  noRelay: "No relay point found. Try another wilaya or city.",
  confirmStep: "3. Confirm",
  code: "Code received by SMS",
  codeHint: "6 digits",
  newRelay: "New relay point",
  confirm: "Change relay point",
  changed: "Done: your parcel will go to the relay point below.",
  back: "Back to the parcel’s tracking",
  problems: {
    code: "The code is wrong, has expired or was tried too many times. Ask for a new code.",
    relay: "Choose a relay point from the list.",
    full: "This relay point is full: choose another one.",
    closed: "This relay point is closed these days: choose another one.",
    limit: "This parcel’s relay point can no longer be changed.",
    arrived: "The parcel has already reached its relay point: it can no longer change.",
    form: "Enter the 6-digit code and choose a relay point.",
    other: "The change could not be made. Try again in a moment."
  }
};

export const CHANGE_MESSAGES: Readonly<Record<Lang, ChangeMessages>> = Object.freeze({ fr, ar, en });

/** The page's word for what the API answered (lib/errors codes), never the API's own message. */
export function changeProblemOf(code: string | undefined): ChangeProblem {
  switch (code) {
    case "VERIFICATION_CODE_INVALID":
      return "code";
    case "RELAY_NOT_FOUND":
      return "relay";
    case "RELAY_FULL":
      return "full";
    case "RELAY_CLOSED":
      return "closed";
    case "REDIRECT_LIMIT":
    case "INVALID_TRANSITION":
      return "limit";
    case "PARCEL_ALREADY_AT_RELAY":
      return "arrived";
    case "VALIDATION_FAILED":
      return "form";
    default:
      return "other";
  }
}
