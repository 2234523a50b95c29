/**
 * Strings of the console's shell and of the components every feature shares (namespace
 * `common`). French in fr.ts, same keys. A feature's own strings are in its folder.
 */
export default {
  appName: 'Fieldwork',
  skipToContent: 'Skip to content',
  yes: 'Yes',
  no: 'No',
  nav: {
    label: 'Main navigation',
    home: 'Home',
    toggle: 'Toggle navigation',
  },
  crumbs: { label: 'Breadcrumbs', new: 'New', edit: 'Edit' },
  header: {
    search: 'Search',
    searchHint: 'Search records',
    language: 'Language',
    theme: { toDark: 'Switch to dark theme', toLight: 'Switch to light theme' },
    account: 'Account menu',
    office: 'Office {{code}}',
    signOut: 'Sign out',
  },
  languages: { en: 'English', fr: 'Français' },
  palette: {
    placeholder: 'Search records by code or name…',
    nothing: 'Nothing found',
    typeMore: 'Type a code or a name',
    searching: 'Searching…',
    pages: 'Pages',
    unavailable: 'Search is not available on this instance.',
    throttled: 'Too many searches for now: try again in {{seconds}} s.',
    failed: 'The search failed: try again.',
  },
  home: {
    title: 'Good to see you, {{login}}',
    subtitle: 'You work in {{office}} ({{code}}) and the offices below it.',
    openList: 'Open list',
    open: 'Open',
    create: 'New',
    records_one: '{{count}} record',
    records_other: '{{count}} records',
    recordsMore: 'More than {{count}} records',
    recordsUnknown: 'Count not available',
    offices: 'Your offices',
    officesEmpty: 'No office below yours.',
    tipTitle: 'Tip',
    tip: 'Press {{keys}} anywhere to open a record by its code.',
  },
  notFound: {
    title: 'Page not found',
    body: 'There is no page at {{path}}. The link may be wrong or the page may have moved.',
    home: 'Back to home',
  },
  signedOut: {
    title: 'You are signed out',
    body: 'Your session has ended and its tokens were revoked.',
    signIn: 'Sign in again',
  },
  signIn: {
    redirecting: 'Signing you in…',
    failedTitle: 'Sign-in failed',
    retry: 'Try again',
  },
  errors: {
    unexpectedTitle: 'Something went wrong',
    networkTitle: 'The service cannot be reached',
    network: 'Check your connection; the request will be retried.',
    reference: 'Error reference',
    copy: 'Copy reference',
    copied: 'Copied',
    retry: 'Retry',
    loadFailed: 'This could not be loaded',
  },
  /** Lists (components/VirtualTable). */
  table: {
    loadingMore: 'Loading more rows',
    end_one: '{{count}} row, end of the list',
    end_other: '{{count}} rows, end of the list',
  },
  /** Record pages of every feature (components/records). */
  record: {
    code: 'Code',
    details: 'Details',
    codeHint:
      'Letters A to Z, digits, “-”, “_” and “.” (no space), up to {{max}} characters; stored in capitals. It cannot change later.',
    codeFixed: 'The code of a record cannot change.',
    lastUpdate: 'Last updated {{date}}',
    notSet: 'Not set',
    edit: 'Edit',
    backToList: 'Back to the list',
    notFoundTitle: 'Not found',
  },
  /** Record forms of every feature (components/forms). */
  form: {
    save: 'Save',
    create: 'Create',
    cancel: 'Cancel',
    close: 'Close',
    required: 'Fields marked * are required.',
    fixErrors: 'Some fields need your attention.',
    errorTitle: 'The service refused the change',
    seeFields: 'The fields concerned are marked below.',
  },
  /** A save that met a newer version of the record (412). */
  conflict: {
    title: 'Changed since you opened it',
    body: '{{entity}} {{code}} was changed by someone else after you opened this form. Saving now would silently drop their change.',
    choice: 'Reload shows their version (your changes here are lost); Overwrite saves yours over theirs.',
    reload: 'Reload',
    overwrite: 'Overwrite',
    keepEditing: 'Keep editing',
    close: 'Close',
  },
  /** The live console (shared/live): the stream's state in the header, a record changed under its form. */
  live: {
    live: 'Live',
    liveHint: 'Changes made by others show here as they happen.',
    connecting: 'Connecting…',
    connectingHint: 'Connecting to the change stream.',
    reconnecting: 'Reconnecting…',
    reconnectingHint: 'The change stream dropped: trying again. Pages show what they last read.',
    unavailable: 'Not live',
    unavailableHint: 'This instance has no change stream: reload a page to see changes made by others.',
    changedTitle: 'Changed by {{actor}} just now',
    deletedTitle: 'Deleted by {{actor}} just now',
    changedBody:
      'This form still shows the version you opened ({{fields}}). Reload to see theirs (your changes here are lost), or keep editing: saving will ask before overwriting their change.',
    changedBodyNoFields:
      'This form still shows the version you opened. Reload to see theirs (your changes here are lost), or keep editing: saving will ask before overwriting their change.',
    reload: 'Reload',
    dismiss: 'Keep editing',
  },
  /** The save notifications (components/forms/useSaveWithUndo). */
  notify: {
    createdTitle: '{{entity}} {{code}} created',
    createdNoUndo:
      'The service offers no deletion, so a creation cannot be undone here; edit the record to change it.',
    savedTitle: '{{entity}} {{code}} saved',
    savedBody: 'The change is written.',
    undoneTitle: 'Change undone',
    undoneBody: 'The previous version of {{code}} is back.',
  },
  /** Form validation messages of the contract's zod issues (components/forms/zodErrorMap). */
  validation: {
    required: 'Required',
    maxLength: 'At most {{max}} characters',
    maxItems: 'At most {{max}} items',
    min: 'At least {{value}}',
    max: 'At most {{value}}',
    format: 'Invalid format',
    oneOf: 'Pick one of the allowed values',
    invalid: 'Invalid value',
    code: 'Only letters A to Z, digits, “-”, “_” and “.”: no space or other sign',
  },
  /** The unsaved-changes dialog of every form (components/forms). */
  unsaved: {
    title: 'Leave without saving?',
    confirm: 'Your changes to this form are not saved. Leave the page and lose them?',
    leave: 'Leave and lose changes',
    stay: 'Stay on the page',
    close: 'Close',
    signOutTitle: 'Sign out without saving?',
    signOutConfirm: 'Your changes to this form are not saved. Sign out and lose them?',
    signOut: 'Sign out and lose changes',
  },
  /** The save notification's Undo (components/forms/useSaveWithUndo). */
  undo: {
    action: 'Undo',
    close: 'Close the notification',
    undoing: 'Restoring the previous version…',
    failedTitle: 'Undo failed',
    changedSince:
      '{{code}} was changed again since this save; it was not undone. Open it to see the current version.',
  },
  /** Date inputs (components/customFields). */
  dates: {
    clear: 'Clear the date',
    invalid: 'This date does not exist',
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    previousDecade: 'Previous decade',
    nextDecade: 'Next decade',
    monthLevel: 'Choose the month',
    yearLevel: 'Choose the year',
  },
  /** Rights (app/permissions.ts): the user menu's roles, the reason a control is disabled. */
  permissions: {
    roles: 'Roles',
    role: { viewer: 'Viewer', backOffice: 'Back office', planner: 'Planner', admin: 'Administrator' },
    cannotRead: 'Your role cannot see this',
    cannot: {
      referentials: 'Your role cannot edit customers, sites or assets',
      businessOrganization: "Your role cannot edit the catalog's items",
      staff: 'Your role cannot edit skills',
      rostering: 'Your role cannot change rosters',
      slots: 'Your role cannot search slots to schedule',
      fieldTracking: 'Your role cannot change field tracking',
      fieldService: 'Your role cannot validate or delete work orders',
      projectManagement: 'Your role cannot link work orders into projects or service orders',
      scheduling: 'Your role cannot schedule work orders',
      diagnostic: "Your role cannot change work orders' flags or notes",
      webhooks: 'Only an administrator can manage webhook subscriptions',
    },
  },
  loading: 'Loading…',
  empty: { title: 'Nothing here yet' },
} as const;
