import type en from './en.ts';

const fr: typeof en = {
  legend: 'Champs personnalisés',
  none: "Aucun champ personnalisé n'est configuré pour ce type de fiche.",
  unknownTitle: 'Autres champs personnalisés',
  unknownHint: 'Ces codes ne sont pas décrits par la configuration actuelle. Ils sont conservés tels quels.',
  readOnly: 'lecture seule',
  notSet: 'Non renseigné',
  yes: 'Oui',
  no: 'Non',
  timeHint: 'Nombre entier de minutes',
  minutesSuffix: 'min',
  latitude: 'Latitude',
  longitude: 'Longitude',
  paste: 'Coller « lat, lng »',
  pasteInvalid: 'Deux nombres attendus : latitude, longitude',
  typeMismatchHint:
    'Enregistré comme {{type}}, ce qui ne correspond plus à la configuration ; conservé tel quel.',
  types: {
    textValue: 'texte',
    booleanValue: 'oui/non',
    dateValue: 'date',
    dateTimeValue: 'date et heure',
    timeValue: 'durée',
    dropDownValue: 'valeur de liste',
    urlValue: 'URL',
    gpsValue: 'position GPS',
  },
  errors: {
    mandatory: 'Ce champ est obligatoire',
    typeMismatch: "La valeur enregistrée n'a pas le type configuré",
    text: 'Saisissez un texte',
    date: 'Saisissez une date au format AAAA-MM-JJ',
    dateTime: 'Saisissez une date et une heure au format AAAA-MM-JJ HH:MM',
    integer: 'Saisissez un nombre entier',
    dropDown: 'Choisissez une des valeurs proposées',
    url: 'Saisissez une adresse complète commençant par http:// ou https://',
    gpsBoth: 'Saisissez la latitude et la longitude, ou aucune des deux',
    latitude: 'La latitude doit être comprise entre -90 et 90',
    longitude: 'La longitude doit être comprise entre -180 et 180',
  },
};
export default fr;
