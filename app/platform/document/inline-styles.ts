import { createContext, useContext } from 'react'

const InlineStylesContext = createContext<string | undefined>(undefined)

/** Set by the server renderer only (entry.server.tsx): the client bundle never carries the CSS. */
export const InlineStylesProvider = InlineStylesContext.Provider

/** The site's stylesheet as text on the server; undefined in the browser. */
export function useInlineStyles() {
  return useContext(InlineStylesContext)
}
