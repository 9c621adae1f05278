// GraphQL types from the committed SDL (openapi/schema.graphql) for the documents the
// client ships (src/operations.graphql): typed operations, variables and results.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "../../openapi/schema.graphql",
  documents: "src/operations.graphql",
  generates: {
    "src/generated/graphql.ts": {
      plugins: ["typescript", "typescript-operations", "typed-document-node"],
      config: {
        enumsAsTypes: true,
        avoidOptionals: { field: true },
        strictScalars: true,
        useTypeImports: true,
        scalars: { JSON: "unknown", Long: "number", ID: "string" },
      },
    },
  },
};

export default config;
