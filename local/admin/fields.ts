// Custom fields: `field add` defines one on an entity or note type; its id is then the field's
// identifier in configurations, in `fields` selections and in entity/note `fields` on write.
import { CUSTOM_FIELD_KINDS, CUSTOM_FIELD_TYPES, type CustomFieldKind } from '#lib/domain/configurations.ts';
import { MAX_SELECT_VALUES, repeatedName } from '#lib/domain/field-values.ts';
import { inputProblem } from '#lib/domain/input.ts';
import { FieldValueFields } from '#lib/domain/schemas/value-sets.ts';
import { addCustomField } from '#lib/store/custom-fields.ts';
import { asUsage, checkedName, optional, required, UsageError, type AdminCommand } from './command.ts';

const TYPES: readonly string[] = CUSTOM_FIELD_TYPES;

export const fieldCommands: AdminCommand[] = [
  {
    name: 'field add',
    usage: `field add --workspace W --entity-type ${TYPES.join('|')} --name N --kind ${CUSTOM_FIELD_KINDS.join('|')} [--options "a,b"]`,
    options: { workspace: 'value', 'entity-type': 'value', name: 'value', kind: 'value', options: 'value' },
    run: async (o) => {
      const workspace = required(o, 'workspace');
      const entityType = required(o, 'entity-type');
      if (!TYPES.includes(entityType)) throw new UsageError(`--entity-type must be one of ${TYPES.join(', ')}`);
      const name = checkedName('name', required(o, 'name').trim());
      const kind = required(o, 'kind') as CustomFieldKind;
      if (!CUSTOM_FIELD_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${CUSTOM_FIELD_KINDS.join(', ')}`);
      const optionsArg = optional(o, 'options');
      let options: string[] | undefined;
      if (kind === 'select') {
        if (optionsArg === undefined || optionsArg.trim() === '') throw new UsageError('--options "a,b,..." is required for a select field');
        const given = optionsArg.split(',').map((s) => s.trim());
        // Two commas in a row, or one at either end, name an option with nothing in it: a slip, never dropped unsaid.
        const empty = given.indexOf('');
        if (empty !== -1) throw new UsageError(`--options: option ${empty + 1} of ${given.length} is empty (two commas in a row, or a comma at an end)`);
        options = [...new Set(given)];
        // As the field-values API takes options (lib/store/field-values.ts): a field made here holds none that API would refuse.
        if (options.length > MAX_SELECT_VALUES)
          throw new UsageError(`--options gives ${options.length} options; a select field holds at most ${MAX_SELECT_VALUES}`);
        // Names are unique regardless of case, as the field-values API keeps them (exact repeats are merged above).
        const twice = repeatedName(options);
        options.forEach((option, i, all) => {
          if (twice?.repeat === i)
            throw new UsageError(
              `--options: option ${i + 1} ('${option.slice(0, 60)}') differs from '${all[twice.first]!.slice(0, 60)}' only in case; option names are unique regardless of case`,
            );
          const problem = inputProblem(FieldValueFields, { name: option });
          if (problem) {
            const shown = option.length > 60 ? `${option.slice(0, 59)}…` : option;
            throw new UsageError(`--options: option ${i + 1} ('${shown}') is not a name the field-values API takes: ${problem}`);
          }
        });
      } else if (optionsArg !== undefined) {
        throw new UsageError('--options applies only to --kind select');
      }
      const def = await asUsage(() => addCustomField(workspace, { entityType, name, fieldKind: kind, ...(options ? { options } : {}) }));
      return { id: def.id, entityType: def.entityType, name: def.name, kind: def.fieldKind, ...(def.options ? { options: def.options } : {}) };
    },
  },
];
