/** What the explorer's toolbar and its "⋯" menu ask the explorer to do. */
export type ToolbarAction = 'create-folder' | 'edit-folder' | 'delete-folder' | 'upload' | 'period';

/** The name of the "⋯" menu with the rare and the destructive actions. */
export const MORE_ACTIONS_LABEL = 'Weitere Aktionen';
