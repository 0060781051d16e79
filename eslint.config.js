import neostandard from 'neostandard'

export default [
  // test/generated holds what openapi-typescript writes (npm run openapi:types), in its own style.
  ...neostandard({ ts: true, ignores: ['dist/**', 'coverage/**', '.tap/**', 'data/**', 'test/generated/**'] })
]
