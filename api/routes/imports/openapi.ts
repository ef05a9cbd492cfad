import { PROBLEM_JSON, ref } from '../../openapi/components';
import { operation } from '../../openapi/operation';
import { CSV_TYPE, XLSX_TYPE } from '../trace/spreadsheet';
import { kindParam, templateQuery } from './schema';

export const importsOperations = [
  operation({
    method: 'get',
    path: '/Integration/Templates/{kind}',
    summary: 'The spreadsheet template of an import kind',
    description:
      'A header row naming each column by the JSON field it fills (`EventTime`, `ProductInstances.LotSerial`, `DestinationLocation.Id`) and a row ' +
      'of examples. Rows with the same `Id` are one record; each adds one element to its lists (the columns `List.Field`). format=xlsx adds a ' +
      'Notes sheet: each column’s meaning, whether it is required, its type and allowed values, taken from the schemas the API validates with.',
    tags: ['Imports'],
    pathParams: kindParam,
    query: templateQuery,
    responses: {
      200: {
        description: 'The template, as an attachment.',
        contentType: [CSV_TYPE, XLSX_TYPE],
        schema: {
          type: 'string',
          format: 'binary',
          description: 'CSV text (UTF-8, header and example row) or an xlsx workbook.',
        },
      },
      400: { description: 'format is neither csv nor xlsx.', contentType: PROBLEM_JSON, schema: ref('Problem') },
      404: { description: 'No such kind.', contentType: PROBLEM_JSON, schema: ref('Problem') },
    },
  }),
];
